import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("ProtocolHeader")
struct ProtocolHeaderTests {
    // Written by hand from the §4.4.3 layout: the PBKDFParamRequest that opens PASE.
    @Test func encodesPBKDFParamRequestHeader() throws {
        let header = ProtocolHeader(
            isInitiator: true, needsAcknowledgement: true,
            opcode: SecureChannelOpcode.pbkdfParamRequest.rawValue, exchangeID: 0x1234, protocolID: .secureChannel)
        let expected = hex("05 20 3412 0000")
        #expect(try header.encode() == expected)
        let (decoded, length) = try ProtocolHeader.decode(expected + [0x15, 0x18])
        #expect(decoded == header)
        #expect(length == 6)
    }

    // The protocol header of matter.js's secured-message vector (SecureSessionTest.ts): a reliable
    // interaction-model response that piggybacks an acknowledgement.
    @Test func encodesPiggybackedAcknowledgement() throws {
        let header = ProtocolHeader(
            isInitiator: false, needsAcknowledgement: true, acknowledgedMessageCounter: 0x0053_1422,
            opcode: 0x05, exchangeID: 0x048D, protocolID: .interactionModel)
        let expected = hex("06 05 8D04 0100 22145300")
        #expect(try header.encode() == expected)
        #expect(try ProtocolHeader.decode(expected).header == header)
    }

    @Test func placesVendorIDBeforeProtocolIDAndExtensionsLast() throws {
        let header = ProtocolHeader(
            isInitiator: true, needsAcknowledgement: false, acknowledgedMessageCounter: 1,
            opcode: 0x7F, exchangeID: 0xFFFF, protocolID: ProtocolID(rawValue: 0x0005), protocolVendorID: 0xFFF1,
            securedExtensions: [0xEE])
        let expected = hex("1B 7F FFFF F1FF 0500 01000000 0100 EE")
        #expect(try header.encode() == expected)
        #expect(try ProtocolHeader.decode(expected).header == header)
    }

    @Test func roundTripsAllThirtyTwoFlagCombinations() throws {
        for flags in UInt8(0)..<32 {
            let header = ProtocolHeader(
                isInitiator: flags & 0x01 != 0,
                needsAcknowledgement: flags & 0x04 != 0,
                acknowledgedMessageCounter: flags & 0x02 != 0 ? 0xCAFE_F00D : nil,
                opcode: flags, exchangeID: 0xBEEF, protocolID: .bulkDataExchange,
                protocolVendorID: flags & 0x10 != 0 ? 0x1234 : nil,
                securedExtensions: flags & 0x08 != 0 ? [1, 2, 3] : nil)
            let bytes = try header.encode()
            #expect(bytes.first == flags)
            let (decoded, length) = try ProtocolHeader.decode(bytes + [0x42])
            #expect(decoded == header)
            #expect(length == bytes.count)
        }
    }

    @Test func everyPrefixOfAFullHeaderIsTruncated() throws {
        let bytes = hex("1F 01 0200 0300 0400 05000000 0200 AABB")
        #expect(throws: Never.self) { try ProtocolHeader.decode(bytes) }
        for length in 0..<bytes.count {
            #expect(throws: MessageError.self) { try ProtocolHeader.decode(Array(bytes[..<length])) }
        }
        #expect(throws: MessageError.truncated(needed: 4, offset: 8, available: 1)) {
            try ProtocolHeader.decode(hex("12 01 0200 0300 0400 05"))
        }
    }

    @Test func refusesAnExtensionLongerThanItsLengthField() {
        let header = ProtocolHeader(
            isInitiator: false, needsAcknowledgement: false, opcode: 0, exchangeID: 0, protocolID: .secureChannel,
            securedExtensions: [UInt8](repeating: 0, count: 65_536))
        #expect(throws: MessageError.extensionTooLong(length: 65_536)) { try header.encode() }
    }

    // Matter Core §4.10.1 secure channel opcode table and the standard protocol IDs.
    @Test func opcodeAndProtocolValuesMatchTheSpec() {
        let expected: [(SecureChannelOpcode, UInt8)] = [
            (.messageCounterSyncRequest, 0x00), (.messageCounterSyncResponse, 0x01), (.standaloneAcknowledgement, 0x10),
            (.pbkdfParamRequest, 0x20), (.pbkdfParamResponse, 0x21), (.pasePake1, 0x22), (.pasePake2, 0x23),
            (.pasePake3, 0x24), (.caseSigma1, 0x30), (.caseSigma2, 0x31), (.caseSigma3, 0x32),
            (.caseSigma2Resume, 0x33), (.statusReport, 0x40), (.icdCheckIn, 0x50),
        ]
        #expect(expected.count == SecureChannelOpcode.allCases.count)
        for (opcode, value) in expected {
            #expect(opcode.rawValue == value)
        }
        #expect(ProtocolID.secureChannel.rawValue == 0x0000)
        #expect(ProtocolID.interactionModel.rawValue == 0x0001)
        #expect(ProtocolID.bulkDataExchange.rawValue == 0x0002)
        #expect(ProtocolID.userDirectedCommissioning.rawValue == 0x0003)
        #expect(ProtocolID(rawValue: 0x0042).description == "protocol 0x42")
    }
}
