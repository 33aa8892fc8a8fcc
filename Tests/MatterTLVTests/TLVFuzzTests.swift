import MatterTLV
import MatterTestSupport
import Testing

/// Property tests for hostile input: the reader must return or throw `TLVError`, never crash or
/// hang, and whatever it accepts must re-encode to a canonical form that reads back the same.
@Suite(.timeLimit(.minutes(1))) struct TLVFuzzTests {
    private static let iterations = 10_000
    /// Bytes that steer the reader into its edge cases: containers, end, long lengths, reserved types.
    private static let interestingBytes: [UInt8] = [0x00, 0x0F, 0x13, 0x15, 0x16, 0x17, 0x18, 0x1F, 0x7F, 0x80, 0xFF]

    @Test func randomBytesNeverCrash() throws {
        var generator = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<Self.iterations {
            let count = Int.random(in: 0...64, using: &generator)
            let input = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try checkDecodingIsSafeAndStable(input)
        }
    }

    @Test func mutatedValidEncodingsNeverCrash() throws {
        var generator = SplitMix64(seed: 0x5EED_0002)
        let seeds =
            specExamples.map { hex($0.encoding) } + [
                hex("15 30 01 04 00 01 02 03 25 02 34 12 24 03 00 28 04 35 05 25 01 f4 01 25 02 2c 01 18 18"),
                hex("17 16 15 24 01 2a 18 18 0d 02 00 68 69 18"),
            ]
        for _ in 0..<Self.iterations {
            let seed = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            let input = FuzzMutation.mutate(seed, interesting: Self.interestingBytes, using: &generator)
            try checkDecodingIsSafeAndStable(input)
        }
    }

    private func checkDecodingIsSafeAndStable(_ input: [UInt8]) throws {
        guard let elements = try? TLVReader.decodeAll(input) else {
            return
        }
        let canonical = TLVWriter.encode(elements)
        let reread = try TLVReader.decodeAll(canonical)
        #expect(reread.count == elements.count)
        #expect(TLVWriter.encode(reread) == canonical, "unstable re-encoding of \(input)")
    }
}
