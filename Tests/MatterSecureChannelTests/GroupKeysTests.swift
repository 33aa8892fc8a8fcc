import MatterCrypto
import Testing

@testable import MatterSecureChannel

/// Known answers: connectedhomeip's TestChipCryptoPAL (TestGroup_SessionIdDerivation: kGroupOperationalKey1 and 2 with
/// kGroupSessionId1 and 2), and the operational key matter.js derives from connectedhomeip's epoch key on the
/// specification's compressed fabric ID (87E1B004E235A130).
@Suite struct GroupKeysTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    @Test func theOperationalKeyComesFromTheEpochKeyAndTheCompressedFabricID() throws {
        let key = try GroupKeys.operationalKey(
            epochKey: Self.bytes("235bf7e62823d358dcf746bfa7541cf2"), compressedFabricID: Self.bytes("87e1b004e235a130")
        )
        #expect(key == Self.bytes("daee424f434677afb5949706572b4ccb"))
        #expect(throws: CryptoError.self) {
            _ = try GroupKeys.operationalKey(epochKey: [1, 2, 3], compressedFabricID: Self.bytes("87e1b004e235a130"))
        }
    }

    @Test(
        arguments: [
            ("1f19ed3cef8a211baf306faeeee7aac6", 0x6C80),
            ("aa979a48bd8cdf293a0709b9c1eb1930", 0x0C48),
        ] as [(String, UInt16)])
    func theSessionIDIsTheKeysHash(key: String, sessionID: UInt16) throws {
        #expect(try GroupKeys.sessionID(operationalKey: Self.bytes(key)) == sessionID)
    }
}
