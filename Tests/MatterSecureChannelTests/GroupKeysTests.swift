import MatterCrypto
import Testing

@testable import MatterSecureChannel

/// Known answers: connectedhomeip's TestChipCryptoPAL (TestGroup_SessionIdDerivation: kGroupOperationalKey1 and 2 with
/// kGroupSessionId1 and 2), the operational key matter.js derives from connectedhomeip's epoch key on the
/// specification's compressed fabric ID (87E1B004E235A130), and connectedhomeip's TestGroupOperationalCredentials
/// (each epoch key's operational key, privacy key and session ID on that fabric).
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

    @Test(
        arguments: [
            (
                "00000000000000000000000000000000", "c5f2690187115150c356ad93b385bb0f",
                "f5ce81881d1118c5c891c9060bc77009", 0x479E
            ),
            (
                "101112131415161718191a1b1c1d1e1f", "aed95695f375d2ce78556a41730c3f43",
                "dc90db2e61765a42607fafaf1637400a", 0xA512
            ),
            (
                "202122232425262728292a2b2c2d2e2f", "35ca346e5e24bbbe889cf4d35c5e820a",
                "b1fb3e79a2ff27f3704d2be9192db607", 0xD800
            ),
        ] as [(String, String, String, UInt16)])
    func anEpochKeyGivesItsOperationalKeyPrivacyKeyAndSessionID(
        epochKey: String, operationalKey: String, privacyKey: String, sessionID: UInt16
    ) throws {
        let key = try GroupKeys.operationalKey(
            epochKey: Self.bytes(epochKey), compressedFabricID: Self.bytes("87e1b004e235a130"))
        #expect(key == Self.bytes(operationalKey))
        #expect(try GroupKeys.privacyKey(operationalKey: key) == Self.bytes(privacyKey))
        #expect(try GroupKeys.sessionID(operationalKey: key) == sessionID)
    }

    // MARK: Key sets

    static func epoch(_ byte: UInt8, _ start: UInt64) -> GroupKeySet.EpochKey {
        GroupKeySet.EpochKey(key: [UInt8](repeating: byte, count: 16), startTime: start)
    }

    @Test func aKeySetHoldsOneToThreeKeysOfSixteenBytesStartingInOrder() throws {
        #expect(throws: GroupKeySetError.epochKeyCount(0)) {
            try GroupKeySet(id: 1, policy: .trustFirst, epochKeys: [])
        }
        #expect(throws: GroupKeySetError.epochKeyCount(4)) {
            try GroupKeySet(id: 1, policy: .trustFirst, epochKeys: (1...4).map { Self.epoch(1, $0) })
        }
        #expect(throws: GroupKeySetError.epochKeyLength(position: 1, length: 15)) {
            try GroupKeySet(
                id: 1, policy: .trustFirst,
                epochKeys: [
                    Self.epoch(1, 1), GroupKeySet.EpochKey(key: [UInt8](repeating: 2, count: 15), startTime: 2),
                ])
        }
        #expect(throws: GroupKeySetError.zeroStartTime) {
            try GroupKeySet(id: 1, policy: .trustFirst, epochKeys: [Self.epoch(1, 0)])
        }
        #expect(throws: GroupKeySetError.startTimesNotIncreasing(position: 2)) {
            try GroupKeySet(
                id: 1, policy: .trustFirst, epochKeys: [Self.epoch(1, 5), Self.epoch(2, 6), Self.epoch(3, 6)])
        }
        let set = try GroupKeySet(id: 0x01A1, policy: .trustFirst, epochKeys: [Self.epoch(1, 5), Self.epoch(2, 9)])
        #expect(set.epochKeys.count == 2)
    }

    /// A sender uses the newest key in force; without the time, the one connectedhomeip uses (the middle of three).
    @Test func theCurrentKeyIsTheNewestInForce() throws {
        let set = try GroupKeySet(
            id: 1, policy: .trustFirst, epochKeys: [Self.epoch(1, 100), Self.epoch(2, 200), Self.epoch(3, 300)])
        #expect(set.currentKey(at: 250).key.first == 2)
        #expect(set.currentKey(at: 300).key.first == 3)
        #expect(set.currentKey(at: 50).key.first == 1)
        #expect(set.currentKey(at: nil).key.first == 2)
        let two = try GroupKeySet(id: 1, policy: .trustFirst, epochKeys: [Self.epoch(1, 100), Self.epoch(2, 200)])
        #expect(two.currentKey(at: nil).key.first == 1)
    }
}
