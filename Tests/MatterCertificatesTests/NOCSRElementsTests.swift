import MatterCertificates
import MatterTLV
import Testing

@Suite struct NOCSRElementsTests {
    @Test func decodesCircuitMatterElements() throws {
        let elements = try NOCSRElements(tlv: CircuitMatterVectors.nocsrElements)
        #expect(elements.csrNonce == CircuitMatterVectors.csrNonce)
        #expect(elements.vendorReserved1 == nil && elements.vendorReserved2 == nil && elements.vendorReserved3 == nil)
        let request = try CertificateSigningRequest(derEncoded: elements.csr)
        #expect(request.subject.values(of: .organizationName) == ["CSA"])
        #expect(elements.tlvEncoded == CircuitMatterVectors.nocsrElements)
    }

    @Test func roundTripsVendorReservedFields() throws {
        let elements = NOCSRElements(
            csr: [0x30, 0x00], csrNonce: [UInt8](repeating: 9, count: 32), vendorReserved1: [1],
            vendorReserved3: [3, 3])
        #expect(try NOCSRElements(tlv: elements.tlvEncoded) == elements)
    }

    @Test func rejectsWrongNonceLengthAndProfileTags() throws {
        let short = NOCSRElements(csr: [], csrNonce: [UInt8](repeating: 0, count: 31)).tlvEncoded
        #expect(throws: AttestationError.invalidField("CSRNonce", reason: "31 octets, expected 32")) {
            try NOCSRElements(tlv: short)
        }
        let tagged = TLVWriter.encode(
            TLVElement(
                .structure {
                    TLVElement.context(1, [UInt8]())
                    TLVElement.context(2, [UInt8](repeating: 0, count: 32))
                    TLVElement(tag: .fullyQualified(vendorID: 0xFFF1, profile: 1, tag: 1), .bool(true))
                }))
        #expect(
            throws: AttestationError.invalidField(
                "NOCSR elements", reason: "profile-tagged members; vendor data goes in fields 3 to 5")
        ) { try NOCSRElements(tlv: tagged) }
    }
}
