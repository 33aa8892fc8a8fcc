import MatterCertificates
import MatterTLV
import Testing

@Suite struct AttestationElementsTests {
    @Test func decodesCircuitMatterElements() throws {
        let elements = try AttestationElements(tlv: CircuitMatterVectors.attestationElements)
        #expect(elements.certificationDeclaration == CircuitMatterVectors.certificationDeclaration)
        #expect(elements.attestationNonce == CircuitMatterVectors.nonce)
        #expect(elements.timestamp == 1_700_000_000)
        #expect(elements.firmwareInformation == nil && elements.vendorReserved.isEmpty)
        #expect(elements.tlvEncoded == CircuitMatterVectors.attestationElements)
    }

    @Test func keepsVendorReservedElementsAndFirmwareInformation() throws {
        let reserved = TLVElement(tag: .fullyQualified(vendorID: 0xFFF1, profile: 0x0003, tag: 1), .bytes([1, 2, 3]))
        let elements = AttestationElements(
            certificationDeclaration: [0x30, 0x00], attestationNonce: [UInt8](repeating: 7, count: 32),
            timestamp: 0, firmwareInformation: [0xF0], vendorReserved: [reserved])
        #expect(try AttestationElements(tlv: elements.tlvEncoded) == elements)
    }

    @Test func rejectsShortNonceUnknownFieldMissingFieldAndOversize() throws {
        let shortNonce = AttestationElements(certificationDeclaration: [], attestationNonce: [1, 2, 3], timestamp: 0)
            .tlvEncoded
        #expect(throws: AttestationError.invalidField("attestation_nonce", reason: "3 octets, expected 32")) {
            try AttestationElements(tlv: shortNonce)
        }

        let unknown = TLVWriter.encode(
            TLVElement(
                .structure {
                    TLVElement.context(1, [UInt8]())
                    TLVElement.context(2, [UInt8](repeating: 0, count: 32))
                    TLVElement.context(3, UInt32(0))
                    TLVElement.context(9, UInt8(1))
                }))
        #expect(
            throws: AttestationError.invalidField(
                "attestation elements", reason: "unexpected member with tag context(9)")
        ) { try AttestationElements(tlv: unknown) }

        let missing = TLVWriter.encode(TLVElement(.structure { TLVElement.context(1, [UInt8]()) }))
        #expect(throws: AttestationError.malformedElements("attestation elements", .missingField(2))) {
            try AttestationElements(tlv: missing)
        }

        let oversize = AttestationElements(
            certificationDeclaration: [UInt8](repeating: 0, count: 900),
            attestationNonce: [UInt8](repeating: 0, count: 32), timestamp: 0)
        #expect(throws: AttestationError.self) { try AttestationElements(tlv: oversize.tlvEncoded) }
    }
}
