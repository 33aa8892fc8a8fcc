import MatterTLV

// Matter Core 1.1 §11.17.5.6 nocsr-elements: what a device signs in its CSRResponse.
public struct NOCSRElements: Hashable, Sendable {
    /// The DER PKCS #10 request for the new operational key.
    public var csr: [UInt8]
    public var csrNonce: [UInt8]
    public var vendorReserved1: [UInt8]?
    public var vendorReserved2: [UInt8]?
    public var vendorReserved3: [UInt8]?

    public init(
        csr: [UInt8], csrNonce: [UInt8], vendorReserved1: [UInt8]? = nil, vendorReserved2: [UInt8]? = nil,
        vendorReserved3: [UInt8]? = nil
    ) {
        self.csr = csr
        self.csrNonce = csrNonce
        self.vendorReserved1 = vendorReserved1
        self.vendorReserved2 = vendorReserved2
        self.vendorReserved3 = vendorReserved3
    }

    public init(tlv bytes: [UInt8]) throws(AttestationError) {
        let name = "NOCSR elements"
        guard bytes.count <= CertificateLimits.maximumElementsLength else {
            throw .invalidField(
                name, reason: "\(bytes.count) octets, at most \(CertificateLimits.maximumElementsLength) allowed")
        }
        let (fields, vendorReserved) = try decodingElements(name, contextTags: 1...5) { () throws(TLVError) in
            try TLVReader.decode(bytes)
        }
        guard vendorReserved.isEmpty else {
            throw .invalidField(name, reason: "profile-tagged members; vendor data goes in fields 3 to 5")
        }
        do {
            self.init(
                csr: try fields.required(1), csrNonce: try fields.required(2), vendorReserved1: try fields.optional(3),
                vendorReserved2: try fields.optional(4), vendorReserved3: try fields.optional(5))
        } catch {
            throw .malformedElements(name, error)
        }
        guard csrNonce.count == CertificateLimits.attestationNonceLength else {
            throw .invalidField(
                "CSRNonce", reason: "\(csrNonce.count) octets, expected \(CertificateLimits.attestationNonceLength)")
        }
    }

    public var tlvEncoded: [UInt8] {
        TLVWriter.encode(
            TLVElement(
                .structure {
                    TLVElement.context(1, csr)
                    TLVElement.context(2, csrNonce)
                    TLVElement.context(3, vendorReserved1)
                    TLVElement.context(4, vendorReserved2)
                    TLVElement.context(5, vendorReserved3)
                }))
    }
}
