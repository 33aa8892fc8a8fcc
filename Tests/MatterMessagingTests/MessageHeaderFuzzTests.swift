import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("Message header fuzzing")
struct MessageHeaderFuzzTests {
    private static let seeds: [[UInt8]] = [
        hex("04 0000 00 0D0C0B0A 0807060504030201 05 20 3412 0000 1518"),
        hex("06 3412 01 01000000 8877665544332211 7856 1F 01 0200 0300 0400 05000000 0200 AABB"),
        hex("01 0100 60 FFFFFFFF 01000000EFBEADDE 0200 ABCD 06 05 8D04 0100 22145300"),
        hex("00 1d35 00 22145300 ec2b931025dada82ed67521c966d2454d131a271023be6"),
    ]

    /// Random bytes, and mutations of valid messages (bit flips, cuts, splices), go into every decoder:
    /// each must return or throw. Whatever decodes must survive its own re-encoding unchanged.
    @Test func decodersOnlyReturnOrThrow() throws {
        var generator = SplitMix64(seed: 0x5EED_2026)
        var decodedHeaders = 0
        for iteration in 0..<20_000 {
            let input =
                iteration.isMultiple(of: 4)
                ? generator.bytes(generator.below(48))
                : FuzzMutation.mutate(Self.seeds[generator.below(Self.seeds.count)], using: &generator)

            if let (header, length) = try? MessageHeader.decode(input) {
                decodedHeaders += 1
                #expect(length <= input.count)
                #expect(try MessageHeader.decode(header.encode()).header == header)
            }
            if let (header, length) = try? ProtocolHeader.decode(input) {
                #expect(length <= input.count)
                #expect(try ProtocolHeader.decode(header.encode()).header == header)
            }
            if let message = try? Message.decode(input) {
                #expect(try Message.decode(message.encode()) == message)
            }
            _ = try? Message.decrypt(input, key: [UInt8](repeating: 0x11, count: 16), nonceSourceNodeID: 0)
        }
        #expect(decodedHeaders > 1_000)
    }
}
