import MatterDiscovery
import Testing

/// Random and mutated packets: decoding may only return a message or throw DNSMessageError.
@Suite struct DNSMessageFuzzTests {
    @Test func randomAndMutatedPacketsOnlyThrow() throws {
        var random = SplitMix64(seed: 0xD15C_0FE7)
        let seeds = [
            DNSMessageTests.handWrittenResponse,
            try DNSMessageTests.handWrittenMessage.encoded(compressingNames: false),
        ]
        var decoded = 0
        for round in 0..<20_000 {
            var packet: [UInt8]
            if round.isMultiple(of: 4) {
                packet = (0..<Int.random(in: 0...96, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            } else {
                packet = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = Int.random(in: 0..<packet.count, using: &random)
                    switch Int.random(in: 0...3, using: &random) {
                    case 0: packet[position] = UInt8.random(in: 0...255, using: &random)
                    case 1: packet[position] = 0xC0 | UInt8.random(in: 0...0x3F, using: &random)
                    case 2: packet.remove(at: position)
                    default: packet = Array(packet.prefix(position))
                    }
                    if packet.isEmpty { break }
                }
            }
            do {
                let message = try DNSMessage(decoding: packet)
                // Whatever decodes must encode again without tripping over its own limits.
                _ = try message.encoded()
                decoded += 1
            } catch {
                // Only DNSMessageError can be thrown; the typed throws guarantees it.
            }
        }
        #expect(decoded > 0)
    }
}

/// A small seeded generator (SplitMix64) so every run feeds the same inputs.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
