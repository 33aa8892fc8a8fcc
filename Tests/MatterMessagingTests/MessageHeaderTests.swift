import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("MessageHeader")
struct MessageHeaderTests {
    // Spec-compliance vectors from connectedhomeip's TestMessageHeader.cpp.
    @Test func decodesSecureUnicastSpecVector() throws {
        let bytes = hex("00 88 77 00 44 33 22 11")
        let (header, length) = try MessageHeader.decode(bytes)
        #expect(length == 8)
        #expect(header.sessionID == 0x7788)
        #expect(header.sessionType == .unicast)
        #expect(header.messageCounter == 0x1122_3344)
        #expect(header.sourceNodeID == nil)
        #expect(header.destination == nil)
        #expect(header.isSecured)
        #expect(try header.encode() == bytes)
    }

    @Test func decodesUnsecuredSpecVector() throws {
        let bytes = hex("00 00 00 00 40 30 20 10")
        let (header, length) = try MessageHeader.decode(bytes)
        #expect(length == 8)
        #expect(header.sessionID == 0)
        #expect(header.messageCounter == 0x1020_3040)
        #expect(!header.isSecured)
        #expect(try header.encode() == bytes)
    }

    // The same suite's group vector sets the P flag (security flags 0xC1): its hidden fields are read as they are on
    // the wire, for the group layer to reveal; on a unicast session the P flag is refused.
    @Test func readsThePrivacyFlagOfAGroupMessageAndRefusesItOnUnicast() throws {
        let (header, _) = try MessageHeader.decode(hex("06 EE DD C1 40 30 20 10 08 07 06 05 04 03 02 01 56 34"))
        #expect(header.isPrivate && header.sessionType == .group && header.securityFlags == 0xC1)
        #expect(throws: MessageError.privacyNotSupported) {
            try MessageHeader.decode(hex("00 EE DD 80 40 30 20 10"))
        }
        #expect(MessageError.privacyNotSupported.description == "privacy-obfuscated unicast messages are not supported")
    }

    // The header of matter.js's captured secured message (SecureSessionTest.ts).
    @Test func decodesCapturedSecuredHeader() throws {
        let (header, length) = try MessageHeader.decode(hex("00 1d 35 00 22 14 53 00 ec 2b"))
        #expect(length == 8)
        #expect(header.sessionID == 0x351D)
        #expect(header.messageCounter == 0x0053_1422)
        #expect(header.securityFlags == 0)
    }

    // Written by hand from the §4.4.1 layout: unsecured PBKDFParamRequest from node 0x0102030405060708.
    @Test func encodesUnsecuredHeaderWithSourceNodeID() throws {
        let header = MessageHeader(sessionID: 0, messageCounter: 0x0A0B_0C0D, sourceNodeID: 0x0102_0304_0506_0708)
        let expected = hex("04 0000 00 0D0C0B0A 0807060504030201")
        #expect(try header.encode() == expected)
        let (decoded, length) = try MessageHeader.decode(expected + [0xAA])
        #expect(decoded == header)
        #expect(length == 16)
    }

    @Test func encodesGroupHeader() throws {
        let header = MessageHeader(
            sessionID: 0x1234, sessionType: .group, messageCounter: 1,
            sourceNodeID: 0x1122_3344_5566_7788, destination: .group(0x5678))
        let expected = hex("06 3412 01 01000000 8877665544332211 7856")
        #expect(try header.encode() == expected)
        #expect(try MessageHeader.decode(expected).header == header)
    }

    @Test func encodesDestinationNodeAndMessageExtensions() throws {
        let header = MessageHeader(
            sessionID: 0x0001, isControlMessage: true, messageCounter: 0xFFFF_FFFF,
            destination: .node(0xDEAD_BEEF_0000_0001), messageExtensions: [0xAB, 0xCD])
        let expected = hex("01 0100 60 FFFFFFFF 01000000EFBEADDE 0200 ABCD")
        #expect(try header.encode() == expected)
        #expect(try MessageHeader.decode(expected).header == header)
    }

    @Test func roundTripsEveryValidFlagCombination() throws {
        var validCount = 0
        for sessionType in [MessageHeader.SessionType.unicast, .group] {
            for isControl in [false, true] {
                for source in [nil, UInt64(0x0102_0304_0506_0708)] {
                    for destination in [nil, MessageHeader.Destination.node(42), .group(7)] {
                        for extensions in [nil, [], [UInt8](1...5)] as [[UInt8]?] {
                            let header = MessageHeader(
                                sessionID: 0x4321, sessionType: sessionType, isControlMessage: isControl,
                                messageCounter: 0x89AB_CDEF, sourceNodeID: source, destination: destination,
                                messageExtensions: extensions)
                            guard let bytes = try? header.encode() else { continue }
                            validCount += 1
                            let (decoded, length) = try MessageHeader.decode(bytes + [9, 9])
                            #expect(decoded == header)
                            #expect(length == bytes.count)
                        }
                    }
                }
            }
        }
        // Unicast: 2 × 2 × 2 (no group destination) × 3; group: control 2 destinations, data 1, source required.
        #expect(validCount == 24 + 9)
    }

    @Test func rejectsCombinationsTheSpecForbids() {
        #expect(throws: MessageError.groupDestinationOnUnicastSession) {
            try MessageHeader(sessionID: 1, messageCounter: 1, destination: .group(1)).encode()
        }
        #expect(throws: MessageError.groupMessageWithoutSourceNodeID) {
            try MessageHeader(sessionID: 1, sessionType: .group, messageCounter: 1, destination: .group(1)).encode()
        }
        #expect(throws: MessageError.groupMessageWithoutDestination) {
            try MessageHeader(sessionID: 1, sessionType: .group, messageCounter: 1, sourceNodeID: 2).encode()
        }
        #expect(throws: MessageError.nodeDestinationOnGroupDataMessage) {
            try MessageHeader(
                sessionID: 1, sessionType: .group, messageCounter: 1, sourceNodeID: 2, destination: .node(3)
            )
            .encode()
        }
        // The same forbidden layouts, as bytes from a peer.
        #expect(throws: MessageError.groupDestinationOnUnicastSession) {
            try MessageHeader.decode(hex("02 0100 00 01000000 0100"))
        }
        #expect(throws: MessageError.groupMessageWithoutSourceNodeID) {
            try MessageHeader.decode(hex("02 0100 01 01000000 0100"))
        }
    }

    @Test func rejectsUnsupportedVersionReservedValuesAndTruncation() {
        #expect(throws: MessageError.unsupportedVersion(1)) { try MessageHeader.decode(hex("10 0000 00 00000000")) }
        #expect(throws: MessageError.reservedDestinationSize) { try MessageHeader.decode(hex("03 0000 00 00000000")) }
        #expect(throws: MessageError.reservedSessionType(2)) { try MessageHeader.decode(hex("00 0000 02 00000000")) }
        #expect(throws: MessageError.truncated(needed: 4, offset: 4, available: 2)) {
            try MessageHeader.decode(hex("00 0000 00 0000"))
        }
        #expect(throws: MessageError.truncated(needed: 2, offset: 16, available: 1)) {
            try MessageHeader.decode(hex("06 0100 01 01000000 0100000000000000 01"))
        }
        #expect(throws: MessageError.truncated(needed: 3, offset: 10, available: 2)) {
            try MessageHeader.decode(hex("00 0000 20 00000000 0300 AABB"))
        }
    }

    @Test func everyPrefixOfAFullHeaderIsTruncated() throws {
        let bytes = try MessageHeader(
            sessionID: 9, messageCounter: 9, sourceNodeID: 9, destination: .node(9), messageExtensions: [1, 2, 3]
        ).encode()
        for length in 0..<bytes.count {
            #expect(throws: MessageError.self) { try MessageHeader.decode(Array(bytes[..<length])) }
        }
    }

    @Test func truncationErrorReadsClearly() {
        let error = MessageError.truncated(needed: 4, offset: 12, available: 2)
        #expect(error.description == "truncated: needed 4 bytes at offset 12, 2 left")
    }
}
