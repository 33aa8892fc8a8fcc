import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InteractionModelStatusTests {
    @Test func theTableHasTheSpecsCodesOnceEach() {
        let codes = InteractionModelStatus.known.map(\.rawValue)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        #expect(Set(InteractionModelStatus.known.map(\.name)).count == codes.count)
        // Spot checks against StatusCodeList.h.
        #expect(InteractionModelStatus(rawValue: 0x7D).name == "INVALID_SUBSCRIPTION")
        #expect(InteractionModelStatus(rawValue: 0x92).name == "DATA_VERSION_MISMATCH")
        #expect(InteractionModelStatus(rawValue: 0xC6).name == "NEEDS_TIMED_INTERACTION")
        #expect(InteractionModelStatus(rawValue: 0xCC).name == "NO_COMMAND_RESPONSE")
    }

    @Test func eachKnownCodeHasItsOwnExplanation() {
        let explanations = InteractionModelStatus.known.map(\.explanation)
        #expect(Set(explanations).count == explanations.count)
        #expect(!explanations.contains(InteractionModelStatus(rawValue: 0x82).explanation))
    }

    @Test func anUnknownCodeStillDescribesItself() {
        #expect(
            InteractionModelStatus(rawValue: 0x0E).description
                == "STATUS_0x0E (a status code this controller does not know)")
        #expect(
            InteractionModelStatus.unsupportedCommand.description
                == "UNSUPPORTED_COMMAND (the device does not implement this command)")
    }

    @Test func decodesFromAnUnsignedByteOnly() throws {
        #expect(try InteractionModelStatus(tlv: TLVElement(.unsigned(0x87))) == .constraintError)
        #expect(throws: TLVError.integerOutOfRange(value: "256", type: "UInt8")) {
            try InteractionModelStatus(tlv: TLVElement(.unsigned(256)))
        }
    }
}
