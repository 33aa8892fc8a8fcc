import MatterTestSupport
import Testing

@testable import MatterOnboarding

/// Thousands of random and mutated codes: parsing may only return a payload or throw OnboardingError.
@Suite struct OnboardingFuzzTests {
    private static let seeds = [
        "MT:Y.K9042C00KA0648G00",
        "MT:M5L90MP500K64J0A33P0SET70.QT52B.E23-WZE0WISA0DK5N1K8SQ1RYCU1O0",
        "34970112332",
        "749701123365521327694",
    ]

    @Test func randomCodesOnlyThrow() throws {
        var random = SplitMix64(seed: 0x5EED_0B0A)
        let base38 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.")
        for round in 0..<20_000 {
            let length = Int.random(in: 0...80, using: &random)
            let code: String
            if round.isMultiple(of: 2) {
                code = "MT:" + String((0..<length).map { _ in base38.randomElement(using: &random)! })
            } else {
                code = String((0..<length % 24).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            }
            if let payload = try? SetupPayload(parsing: code) {
                try payload.validate()
            }
        }
    }

    @Test func mutatedCodesOnlyThrow() throws {
        var random = SplitMix64(seed: 0xC0DE)
        for _ in 0..<20_000 {
            var characters = Array(Self.seeds.randomElement(using: &random)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<max(1, characters.count), using: &random)
                switch Int.random(in: 0...2, using: &random) {
                case 0 where !characters.isEmpty: characters[position] = UInt8.random(in: 0x20...0x7E, using: &random)
                case 1 where !characters.isEmpty: characters.remove(at: position)
                default:
                    characters.insert(
                        UInt8.random(in: 0x20...0x7E, using: &random), at: min(position, characters.count))
                }
            }
            let code = String(decoding: characters, as: UTF8.self)
            if let payload = try? SetupPayload(parsing: code) {
                // Whatever parses must satisfy the rules it was checked against.
                try payload.validate()
            }
        }
    }
}
