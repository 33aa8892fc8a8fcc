import MatterTLV

// Matter Core 1.1 §11.17.5.4 attestation-elements: what a device signs in its AttestationResponse.
public struct AttestationElements: Hashable, Sendable {
    /// The CMS-enveloped certification declaration (Matter Core §6.3.2).
    public var certificationDeclaration: [UInt8]
    public var attestationNonce: [UInt8]
    /// Seconds since the Matter epoch, or 0 when the device has no time (informational only).
    public var timestamp: UInt32
    public var firmwareInformation: [UInt8]?
    /// Vendor-reserved elements, which carry fully-qualified profile tags.
    public var vendorReserved: [TLVElement]

    public init(
        certificationDeclaration: [UInt8], attestationNonce: [UInt8], timestamp: UInt32,
        firmwareInformation: [UInt8]? = nil, vendorReserved: [TLVElement] = []
    ) {
        self.certificationDeclaration = certificationDeclaration
        self.attestationNonce = attestationNonce
        self.timestamp = timestamp
        self.firmwareInformation = firmwareInformation
        self.vendorReserved = vendorReserved
    }

    public init(tlv bytes: [UInt8]) throws(AttestationError) {
        let name = "attestation elements"
        guard bytes.count <= CertificateLimits.maximumElementsLength else {
            throw .invalidField(
                name, reason: "\(bytes.count) octets, at most \(CertificateLimits.maximumElementsLength) allowed")
        }
        let (fields, vendorReserved) = try decodingElements(name, contextTags: 1...4) { () throws(TLVError) in
            try TLVReader.decode(bytes)
        }
        do {
            self.init(
                certificationDeclaration: try fields.required(1), attestationNonce: try fields.required(2),
                timestamp: try fields.required(3), firmwareInformation: try fields.optional(4),
                vendorReserved: vendorReserved)
        } catch {
            throw .malformedElements(name, error)
        }
        guard attestationNonce.count == CertificateLimits.attestationNonceLength else {
            throw .invalidField(
                "attestation_nonce",
                reason: "\(attestationNonce.count) octets, expected \(CertificateLimits.attestationNonceLength)")
        }
    }

    public var tlvEncoded: [UInt8] {
        TLVWriter.encode(
            TLVElement(
                .structure {
                    TLVElement.context(1, certificationDeclaration)
                    TLVElement.context(2, attestationNonce)
                    TLVElement.context(3, timestamp)
                    TLVElement.context(4, firmwareInformation)
                    for element in vendorReserved { element }
                }))
    }
}

/// Decodes an anonymous structure whose context tags lie in `contextTags` and whose other members carry
/// fully-qualified (vendor-reserved) tags; returns the structure and the vendor-reserved members.
func decodingElements(
    _ name: String, contextTags: ClosedRange<UInt8>,
    _ decode: () throws(TLVError) -> TLVElement
) throws(AttestationError) -> (TLVStructure, [TLVElement]) {
    let fields: TLVStructure
    do {
        fields = try decode().structure()
    } catch {
        throw .malformedElements(name, error)
    }
    var vendorReserved: [TLVElement] = []
    for member in fields.members {
        switch member.tag {
        case .context(let tag) where contextTags.contains(tag):
            continue
        case .fullyQualified:
            vendorReserved.append(member)
        default:
            throw .invalidField(name, reason: "unexpected member with tag \(member.tag)")
        }
    }
    return (fields, vendorReserved)
}
