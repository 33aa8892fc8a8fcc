import Testing

@testable import MatterOnboarding

@Suite struct Base38Tests {
    /// connectedhomeip decodes its default test payload to these 11 bytes.
    @Test func decodesTheSDKDefaultPayload() throws {
        let bytes = try Base38.decode("M5L90MP500K64J00000")
        #expect(bytes == [0x60, 0x00, 0x08, 0x00, 0x20, 0x00, 0x10, 0x00, 0x10, 0x00, 0x00])
        #expect(Base38.encode(bytes) == "M5L90MP500K64J00000")
    }

    @Test func encodesTrailingChunksWithFewerCharacters() throws {
        #expect(Base38.encode([]) == "")
        #expect(Base38.encode([0]).count == 2)
        #expect(Base38.encode([0, 0]).count == 4)
        #expect(Base38.encode([0xFF, 0xFF, 0xFF]) == "PLS18")
        for length in 0...9 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 200) }
            #expect(try Base38.decode(Substring(Base38.encode(bytes))) == bytes)
        }
    }

    @Test func rejectsOverflowingChunks() {
        // "...." is 37·(1 + 38 + 38² + 38³) = 2085135 > 0xFFFF for a 2-byte chunk.
        #expect(throws: OnboardingError.invalidBase38Chunk(position: 0)) { try Base38.decode("....") }
        #expect(throws: OnboardingError.invalidBase38Length(1)) { try Base38.decode("A") }
    }
}
