import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("MessageNonce")
struct MessageNonceTests {
    // Matter Core §4.8.1.1 layout written out by hand.
    @Test func laysOutFlagsCounterAndNodeIDLittleEndian() {
        let nonce = MessageNonce(securityFlags: 0x41, messageCounter: 0x1122_3344, sourceNodeID: 0x0102_0304_0506_0708)
        #expect(nonce.bytes == hex("41 44332211 0807060504030201"))
        #expect(nonce.bytes.count == MessagingConstants.nonceLength)
    }

    @Test func takesFlagsAndCounterFromTheHeader() {
        let header = MessageHeader(
            sessionID: 7, sessionType: .group, messageCounter: 0xA0B0_C0D0, sourceNodeID: 0x55,
            destination: .group(3), messageExtensions: [])
        let nonce = MessageNonce(header: header, sourceNodeID: 0x55)
        #expect(nonce.bytes == hex("21 D0C0B0A0 5500000000000000"))
    }

    // A PASE session uses kUndefinedNodeId in the nonce.
    @Test func paseNonceCarriesUndefinedNodeID() {
        let header = MessageHeader(sessionID: 0x351D, messageCounter: 0x00BF_09E2)
        let nonce = MessageNonce(header: header, sourceNodeID: MessagingConstants.undefinedNodeID)
        #expect(nonce.bytes == hex("00 E209BF00 0000000000000000"))
    }
}
