import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("Message")
struct MessageTests {
    private let pbkdfParamRequest = Message(
        header: MessageHeader(sessionID: 0, messageCounter: 0x0A0B_0C0D, sourceNodeID: 0x0102_0304_0506_0708),
        protocolHeader: ProtocolHeader(
            isInitiator: true, needsAcknowledgement: true,
            opcode: SecureChannelOpcode.pbkdfParamRequest.rawValue, exchangeID: 0x1234, protocolID: .secureChannel),
        payload: hex("15 18"))

    @Test func encodesUnsecuredMessageAsHeaderProtocolHeaderPayload() throws {
        let expected = hex("04 0000 00 0D0C0B0A 0807060504030201  05 20 3412 0000  1518")
        #expect(try pbkdfParamRequest.encode() == expected)
        #expect(try Message.decode(expected) == pbkdfParamRequest)
    }

    @Test func decodesAnEmptyPayload() throws {
        var message = pbkdfParamRequest
        message.payload = []
        #expect(try Message.decode(message.encode()) == message)
    }

    @Test func refusesPlainCodingOfSecuredSessions() throws {
        var message = pbkdfParamRequest
        message.header.sessionID = 0x351D
        #expect(throws: MessageError.securedSessionNeedsKey(sessionID: 0x351D)) { try message.encode() }
        #expect(throws: MessageError.securedSessionNeedsKey(sessionID: 0x351D)) {
            try Message.decode(hex("00 1d35 00 22145300 06058D04010022145300"))
        }
    }

    @Test func reportsTruncationInsideTheProtocolHeader() {
        #expect(throws: MessageError.truncated(needed: 2, offset: 10, available: 1)) {
            try Message.decode(hex("00 0000 00 01000000 05 20 34"))
        }
    }
}
