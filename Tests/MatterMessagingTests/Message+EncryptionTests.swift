import MatterCrypto
import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("Message encryption")
struct MessageEncryptionTests {
    // Known-answer vectors from matter.js SecureSessionTest.ts: a captured interaction-model exchange on a
    // PASE session (so the nonce carries kUndefinedNodeId).
    private static let capturedKey = hex("bacb178b2588443d5d5b1e4559e7accc")
    private static let capturedMessage = hex(
        "001d350022145300ec2b931025dada82ed67521c966d2454d131a271023be699e4e2796650f568e590fd9b65f456c720a60a"
            + "0da127eaa53974c5d41d3d933ed7b58a9ce5b5cb96ad94a7762611c48774cf75458327e74c34668a45dc9943546f8a6aa1dc"
            + "d40bd4b8014befb49954a097a60cbdff333ee3f2fd1f49")
    private static let capturedPayload = hex(
        "153600172403312504fcff181724020024033024040018172402002403302404011817240200240330240402181724020024"
            + "03302404031817240200240328240402181724020024032824040418172403312404031818290324ff0118")

    private static let encryptKey = hex("66951379d0a6d151cf5472cccf13f360")
    private static let encryptPayload = hex(
        "1536011535012600799ac60c37012402002403312404031824021418181535012600b771f32f370124020024032824040418"
            + "2502018018181535012600b771f32f3701240200240328240402182502f1ff18181535012600ddad82d63701240200240330"
            + "2404031824020218181535012600ddad82d637012402002403302404021824020018181535012600ddad82d6370124020024"
            + "033024040118350224003c1818181535012600ddad82d637012402002403302404001824020018181535012600799ac60c37"
            + "012402002403312504fcff18240201181818290424ff0118")
    private static let encryptCiphertext = hex(
        "1f9c4e278a2e2a755ebb4fcb9478211efb09aa9518fcafb56d74f135544636037c16fb6b62347794da0c5bde142e1a8b1cc9"
            + "6575e9e55471c08b58f7640b7d7f4173c8ff967c39e9961f30a29cb1f64f68df4b5bc1e742587f778eeb9ec586c162ff3845"
            + "58596792a2c1e43c150cd0e9ec1484c50950f17cd6c084d07caed94ce45c20004210cbde48da44ebcf7d931657f03e07e3ea"
            + "29ae41868b804bf39e628323cd025507773f07268301aa1e77a82927fce041241839cee4114f6307b6befe3befde87a2d3f1"
            + "3eeef96b27b36e788d907b44bef2d195aa802692f4f12acc015aede3cd29da272d1e4b7f3f59683d25bf08f0e29fba2a8a9b")

    @Test func decryptsCapturedMessage() throws {
        let message = try Message.decrypt(
            Self.capturedMessage, key: Self.capturedKey, nonceSourceNodeID: MessagingConstants.undefinedNodeID)
        #expect(message.header.sessionID == 0x351D)
        #expect(message.header.messageCounter == 0x0053_1422)
        #expect(message.payload == Self.capturedPayload)
    }

    // matter.js sends this message on its peer's session ID 0x8D4B, which its encoder writes into the header.
    @Test func encryptsToTheKnownCiphertext() throws {
        let message = Message(
            header: MessageHeader(sessionID: 0x8D4B, messageCounter: 12_519_906),
            protocolHeader: ProtocolHeader(
                isInitiator: false, needsAcknowledgement: true, acknowledgedMessageCounter: 0x0053_1422,
                opcode: 0x05, exchangeID: 0x048D, protocolID: .interactionModel),
            payload: Self.encryptPayload)
        let sealed = try message.encrypted(key: Self.encryptKey, nonceSourceNodeID: MessagingConstants.undefinedNodeID)
        #expect(sealed == hex("00 4B8D 00 E209BF00") + Self.encryptCiphertext)
        #expect(try Message.decrypt(sealed, key: Self.encryptKey, nonceSourceNodeID: 0) == message)
    }

    private static let groupMessage = Message(
        header: MessageHeader(
            sessionID: 0xABCD, sessionType: .group, messageCounter: 77, sourceNodeID: 0x1122_3344_5566_7788,
            destination: .group(0x0101), messageExtensions: [0xE0]),
        protocolHeader: ProtocolHeader(
            isInitiator: true, needsAcknowledgement: false, opcode: 0x08, exchangeID: 3, protocolID: .interactionModel,
            securedExtensions: [0x5E]),
        payload: [1, 2, 3, 4])
    private static let groupKey = [UInt8](0..<16)

    @Test func roundTripsAGroupMessage() throws {
        let sealed = try Self.groupMessage.encrypted(key: Self.groupKey, nonceSourceNodeID: 0x1122_3344_5566_7788)
        let headerLength = try Self.groupMessage.header.encode().count
        #expect(sealed.count == headerLength + 9 + 4 + MessagingConstants.micLength)
        #expect(
            try Message.decrypt(sealed, key: Self.groupKey, nonceSourceNodeID: 0x1122_3344_5566_7788)
                == Self.groupMessage)
    }

    @Test func anyAlteredByteFailsAuthentication() throws {
        let sealed = try Self.groupMessage.encrypted(key: Self.groupKey, nonceSourceNodeID: 0x1122_3344_5566_7788)
        for index in sealed.indices {
            var tampered = sealed
            tampered[index] ^= 0x01
            // A flipped header bit may also make the header itself invalid; either way nothing decrypts.
            #expect(throws: MessageError.self) {
                try Message.decrypt(tampered, key: Self.groupKey, nonceSourceNodeID: 0x1122_3344_5566_7788)
            }
        }
        var tamperedCiphertext = sealed
        tamperedCiphertext[sealed.count - 20] ^= 0x80
        #expect(throws: MessageError.authenticationFailed) {
            try Message.decrypt(tamperedCiphertext, key: Self.groupKey, nonceSourceNodeID: 0x1122_3344_5566_7788)
        }
        var tamperedCounter = sealed
        tamperedCounter[4] ^= 0x01
        #expect(throws: MessageError.authenticationFailed) {
            try Message.decrypt(tamperedCounter, key: Self.groupKey, nonceSourceNodeID: 0x1122_3344_5566_7788)
        }
    }

    @Test func wrongNonceNodeIDOrKeyFailsAuthentication() throws {
        let sealed = try Self.groupMessage.encrypted(key: Self.groupKey, nonceSourceNodeID: 0x1122_3344_5566_7788)
        #expect(throws: MessageError.authenticationFailed) {
            try Message.decrypt(sealed, key: Self.groupKey, nonceSourceNodeID: 0)
        }
        #expect(throws: MessageError.authenticationFailed) {
            try Message.decrypt(sealed, key: [UInt8](repeating: 0, count: 16), nonceSourceNodeID: 0x1122_3344_5566_7788)
        }
    }

    @Test func refusesShortInputUnsecuredSessionsAndBadKeys() throws {
        #expect(throws: MessageError.truncated(needed: 16, offset: 8, available: 15)) {
            try Message.decrypt(
                hex("00 1d35 00 22145300") + [UInt8](repeating: 0, count: 15), key: Self.groupKey,
                nonceSourceNodeID: 0)
        }
        let unsecured = Message(
            header: MessageHeader(sessionID: 0, messageCounter: 1),
            protocolHeader: Self.groupMessage.protocolHeader, payload: [])
        #expect(throws: MessageError.unsecuredSessionHasNoEncryption) {
            try unsecured.encrypted(key: Self.groupKey, nonceSourceNodeID: 0)
        }
        #expect(throws: MessageError.unsecuredSessionHasNoEncryption) {
            try Message.decrypt(
                unsecured.encode() + [UInt8](repeating: 0, count: 16), key: Self.groupKey,
                nonceSourceNodeID: 0)
        }
        #expect(throws: MessageError.self) {
            try Self.groupMessage.encrypted(key: [1, 2, 3], nonceSourceNodeID: 0)
        }
    }

    /// connectedhomeip's TestSessionManagerDispatch "secure group message (no privacy)": group 2 from node 1, counter
    /// 0x12345678, sealed with the operational key of epoch key B0…BF on the specification's fabric (session 0xDB7D).
    @Test func aGroupMessageSealsAsConnectedhomeipsDoes() throws {
        let key = hex("ca92d7a0942d1a511a0e26ad074f4c2f")
        let wire = hex(
            "067ddb01785634120100000000000000" + "0200" + "65c767bc6cda" + "0106c9801323900e9b3ce6d4bb0327d6")
        let message = Message(
            header: MessageHeader(
                sessionID: 0xDB7D, sessionType: .group, messageCounter: 0x1234_5678, sourceNodeID: 1,
                destination: .group(2)),
            protocolHeader: ProtocolHeader(
                isInitiator: true, needsAcknowledgement: false, opcode: 0x64, exchangeID: 0x0EEE,
                protocolID: ProtocolID(rawValue: 0x7D20)),
            payload: [])
        #expect(try message.encrypted(key: key, nonceSourceNodeID: 1) == wire)
        #expect(try Message.decrypt(wire, key: key, nonceSourceNodeID: 1) == message)
    }

    /// connectedhomeip's TestSessionManagerDispatch "private group message": the same group message (counter
    /// 0x12345679) with the P flag, its counter, source and destination hidden with the privacy key of that operational
    /// key (BFE9…); the nonce takes the security flags with P set.
    @Test func aPrivateGroupMessageIsRevealedAndConcealedAsConnectedhomeipsIs() throws {
        let key = hex("ca92d7a0942d1a511a0e26ad074f4c2f")
        let privacyKey = hex("bfe9da016a765365f2dd97a9f939e425")
        let wire = hex(
            "067ddb81" + "d926afce24c8a0981bdd44f4e730" + "2b2f915a66c9" + "596290ebe4408217b3c0c921a2fca4e1")
        let revealed = try MessagePrivacy.reveal(wire, privacyKey: privacyKey)
        #expect(Array(revealed.prefix(18)) == hex("067ddb81" + "79563412" + "0100000000000000" + "0200"))
        let message = Message(
            header: MessageHeader(
                sessionID: 0xDB7D, sessionType: .group, isPrivate: true, messageCounter: 0x1234_5679, sourceNodeID: 1,
                destination: .group(2)),
            protocolHeader: ProtocolHeader(
                isInitiator: true, needsAcknowledgement: false, opcode: 0x64, exchangeID: 0x0EEE,
                protocolID: ProtocolID(rawValue: 0x7D20)),
            payload: [])
        #expect(try Message.decrypt(revealed, key: key, nonceSourceNodeID: 1) == message)
        #expect(
            try MessagePrivacy.conceal(message.encrypted(key: key, nonceSourceNodeID: 1), privacyKey: privacyKey)
                == wire)
        // Too short to hold its header and MIC.
        #expect(throws: MessageError.self) { try MessagePrivacy.reveal(Array(wire.prefix(20)), privacyKey: privacyKey) }
    }
}
