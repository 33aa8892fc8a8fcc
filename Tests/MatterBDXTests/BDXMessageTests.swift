import MatterBDX
import Testing

/// §11.22.6's messages byte by byte, as the format lays them out (connectedhomeip's BdxMessages packs the same).
@Suite struct BDXMessageTests {
    @Test func anOTARequestorsReceiveInitIsItsDriveBlockSizeAndDesignator() throws {
        // ReceiverDrive, version 0; no offset or length; 1024-byte blocks; "test.bin".
        let receiveInit = BDXMessage.receiveInit(
            BDXTransferInit(proposedControl: .receiverDrive, maxBlockSize: 1024, fileDesignator: Array("test.bin".utf8))
        )
        #expect(receiveInit.opcode == .receiveInit)
        #expect(receiveInit.payload == [0x20, 0x00, 0x00, 0x04, 0x08, 0x00] + Array("test.bin".utf8))
        #expect(try BDXMessage(opcode: 0x04, payload: receiveInit.payload) == receiveInit)
    }

    @Test func offsetsAndLengthsAreFourBytesUnlessOneNeedsEight() throws {
        let resumed = BDXTransferInit(
            proposedControl: [.receiverDrive, .senderDrive], maxBlockSize: 512, startOffset: 0x1000,
            maxLength: 0x20000, fileDesignator: [0x41], metadata: [0x15, 0x18])
        #expect(
            resumed.encoded == [
                0x30, 0x03, 0x00, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x41, 0x15, 0x18,
            ]
        )
        #expect(try BDXTransferInit(decoding: resumed.encoded) == resumed)
        let wide = BDXTransferInit(
            proposedControl: .senderDrive, maxBlockSize: 1024, startOffset: 0x1_0000_0000, fileDesignator: [])
        #expect(wide.encoded == [0x10, 0x12, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(try BDXTransferInit(decoding: wide.encoded) == wide)
    }

    @Test func acceptsBlocksAndAcknowledgementsRoundTrip() throws {
        let messages: [BDXMessage] = [
            .sendAccept(BDXSendAccept(control: .receiverDrive, maxBlockSize: 256)),
            .receiveAccept(BDXReceiveAccept(control: .receiverDrive, maxBlockSize: 1024, length: 1111)),
            .blockQuery(counter: 0), .block(counter: 0, data: [1, 2, 3]), .blockEOF(counter: 7, data: []),
            .blockAck(counter: 0), .blockAckEOF(counter: 7), .blockQueryWithSkip(counter: 3, bytesToSkip: 4096),
        ]
        for message in messages {
            #expect(try BDXMessage(opcode: message.opcode.rawValue, payload: message.payload) == message)
        }
        #expect(
            BDXMessage.receiveAccept(BDXReceiveAccept(control: .receiverDrive, maxBlockSize: 1024, length: 1111))
                .payload
                == [0x20, 0x01, 0x00, 0x04, 0x57, 0x04, 0x00, 0x00])
        #expect(BDXMessage.block(counter: 0x0102_0304, data: [9]).payload == [0x04, 0x03, 0x02, 0x01, 0x09])
    }

    @Test func aMessageCutShortOrOfNoKnownOpcodeIsRefused() {
        #expect(throws: BDXError.truncated(needed: 4, had: 3)) { try BDXMessage(opcode: 0x11, payload: [0, 0, 0]) }
        #expect(throws: BDXError.unknownOpcode(0x03)) { try BDXMessage(opcode: 0x03, payload: []) }
        // A designator longer than what follows.
        #expect(throws: BDXError.truncated(needed: 9, had: 1)) {
            try BDXMessage(opcode: 0x04, payload: [0x20, 0x00, 0x00, 0x04, 0x09, 0x00, 0x41])
        }
    }
}
