import MatterTLV
import MatterTestSupport
import Testing

// Matter Core §4.14.1.2 PBKDFParamRequest, declared with the typed layer as a later layer would.
private struct SessionParameters: TLVCodable, Equatable {
    var idleInterval: UInt32?
    var activeInterval: UInt32?
    var activeThreshold: UInt16?

    init(idleInterval: UInt32?, activeInterval: UInt32?, activeThreshold: UInt16?) {
        self.idleInterval = idleInterval
        self.activeInterval = activeInterval
        self.activeThreshold = activeThreshold
    }

    init(tlv element: TLVElement) throws(TLVError) {
        let members = try element.structure()
        idleInterval = try members.optional(1)
        activeInterval = try members.optional(2)
        activeThreshold = try members.optional(3)
    }

    func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, idleInterval)
            TLVElement.context(2, activeInterval)
            TLVElement.context(3, activeThreshold)
        }
    }
}

private struct PBKDFParamRequest: TLVCodable, Equatable {
    var initiatorRandom: [UInt8]
    var initiatorSessionID: UInt16
    var passcodeID: UInt16
    var hasPBKDFParameters: Bool
    var initiatorSessionParameters: SessionParameters?

    init(
        initiatorRandom: [UInt8], initiatorSessionID: UInt16, passcodeID: UInt16,
        hasPBKDFParameters: Bool, initiatorSessionParameters: SessionParameters?
    ) {
        self.initiatorRandom = initiatorRandom
        self.initiatorSessionID = initiatorSessionID
        self.passcodeID = passcodeID
        self.hasPBKDFParameters = hasPBKDFParameters
        self.initiatorSessionParameters = initiatorSessionParameters
    }

    init(tlv element: TLVElement) throws(TLVError) {
        let members = try element.structure()
        initiatorRandom = try members.required(1)
        initiatorSessionID = try members.required(2)
        passcodeID = try members.required(3)
        hasPBKDFParameters = try members.required(4)
        initiatorSessionParameters = try members.optional(5)
    }

    func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, initiatorRandom)
            TLVElement.context(2, initiatorSessionID)
            TLVElement.context(3, passcodeID)
            TLVElement.context(4, hasPBKDFParameters)
            TLVElement.context(5, initiatorSessionParameters)
        }
    }
}

@Suite struct TLVStructureTests {
    private let random = (0..<32).map { UInt8($0) }

    /// Written by hand from §4.14.1.2 and Appendix A: tags 1-4 then the session parameters (1 = 500, 2 = 300).
    private var handEncoded: [UInt8] {
        hex("15 30 01 20") + random + hex("25 02 34 12 24 03 00 28 04 35 05 25 01 f4 01 25 02 2c 01 18 18")
    }

    private var request: PBKDFParamRequest {
        PBKDFParamRequest(
            initiatorRandom: random, initiatorSessionID: 0x1234, passcodeID: 0, hasPBKDFParameters: false,
            initiatorSessionParameters: SessionParameters(idleInterval: 500, activeInterval: 300, activeThreshold: nil))
    }

    @Test func decodesPBKDFParamRequestFromHandWrittenBytes() throws {
        #expect(try PBKDFParamRequest(tlv: TLVReader.decode(handEncoded)) == request)
    }

    @Test func encodesPBKDFParamRequestToTheSameBytes() {
        #expect(TLVWriter.encode(TLVElement(request.tlvValue())) == handEncoded)
    }

    @Test func absentOptionalMembersAreLeftOutAndDecodeAsNil() throws {
        var withoutParameters = request
        withoutParameters.initiatorSessionParameters = nil
        let encoded = TLVWriter.encode(TLVElement(withoutParameters.tlvValue()))
        #expect(encoded == hex("15 30 01 20") + random + hex("25 02 34 12 24 03 00 28 04 18"))
        #expect(try PBKDFParamRequest(tlv: TLVReader.decode(encoded)) == withoutParameters)
    }

    @Test func missingRequiredFieldIsNamed() throws {
        let element = try TLVReader.decode(hex("15 30 01 20") + random + hex("25 02 34 12 24 03 00 18"))
        #expect(throws: TLVError.missingField(4)) { try PBKDFParamRequest(tlv: element) }
    }

    @Test func outOfRangeFieldIsNamed() throws {
        let element = try TLVReader.decode(hex("15 30 01 20") + random + hex("26 02 70 11 01 00 24 03 00 28 04 18"))
        #expect(throws: TLVError.inField(2, .integerOutOfRange(value: "70000", type: "UInt16"))) {
            try PBKDFParamRequest(tlv: element)
        }
    }

    @Test func wrongTypeInANestedStructureNamesThePath() throws {
        let element = try TLVReader.decode(
            hex("15 30 01 20") + random + hex("25 02 34 12 24 03 00 28 04 35 05 2c 01 02 68 69 18 18"))
        let expected = TLVError.inField(5, .inField(1, .typeMismatch(expected: .unsignedInteger, found: .utf8String)))
        #expect(throws: expected) { try PBKDFParamRequest(tlv: element) }
        #expect(expected.description == "field 5: field 1: expected unsigned integer, found UTF-8 string")
    }

    @Test func structureOfANonStructureThrows() {
        #expect(throws: TLVError.typeMismatch(expected: .structure, found: .array)) {
            try TLVElement(.array([])).structure()
        }
    }

    @Test func firstOfDuplicateTagsWins() throws {
        let members = try TLVReader.decode(hex("15 24 01 01 24 01 02 18")).structure()
        #expect(try members.required(1, as: UInt8.self) == 1)
    }
}
