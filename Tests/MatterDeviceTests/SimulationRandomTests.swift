import MatterDevice
import Testing

struct SimulationRandomTests {
    /// SplitMix64 from seed 0: the reference implementation's (Vigna, splitmix64.c) first outputs.
    @Test func seedZeroGivesTheReferenceSequence() {
        var random = SimulationRandom(seed: 0)
        #expect(
            [random.next(), random.next(), random.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }
}
