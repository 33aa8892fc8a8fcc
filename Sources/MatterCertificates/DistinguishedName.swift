// RFC 5280 §4.1.2.4 Name: an RDNSequence; Matter (Core §6.5.6) puts one attribute in each RDN.
public struct DistinguishedName: Hashable, Sendable {
    // RFC 5280 §4.1.2.4 AttributeTypeAndValue with a directory string value.
    public struct Attribute: Hashable, Sendable {
        public var type: ASN1ObjectIdentifier
        public var value: String
        public var kind: DirectoryStringKind

        public init(type: ASN1ObjectIdentifier, value: String, kind: DirectoryStringKind = .utf8) {
            self.type = type
            self.value = value
            self.kind = kind
        }

        // Matter Core §6.5.6.1: Matter identifiers are UTF8Strings of fixed-width uppercase hex.
        public static func matterNodeID(_ id: UInt64) -> Attribute {
            Attribute(type: .matterNodeID, value: hex(id, digits: 16))
        }
        public static func matterFirmwareSigningID(_ id: UInt64) -> Attribute {
            Attribute(type: .matterFirmwareSigningID, value: hex(id, digits: 16))
        }
        public static func matterICACID(_ id: UInt64) -> Attribute {
            Attribute(type: .matterICACID, value: hex(id, digits: 16))
        }
        public static func matterRCACID(_ id: UInt64) -> Attribute {
            Attribute(type: .matterRCACID, value: hex(id, digits: 16))
        }
        public static func matterFabricID(_ id: UInt64) -> Attribute {
            Attribute(type: .matterFabricID, value: hex(id, digits: 16))
        }
        public static func matterCASEAuthenticatedTag(_ tag: UInt32) -> Attribute {
            Attribute(type: .matterCASEAuthenticatedTag, value: hex(UInt64(tag), digits: 8))
        }
        // Matter Core §6.2.2.2: vendor and product IDs are 4 uppercase hex digits.
        public static func matterVendorID(_ id: UInt16) -> Attribute {
            Attribute(type: .matterVendorID, value: hex(UInt64(id), digits: 4))
        }
        public static func matterProductID(_ id: UInt16) -> Attribute {
            Attribute(type: .matterProductID, value: hex(UInt64(id), digits: 4))
        }
        public static func commonName(_ name: String) -> Attribute { Attribute(type: .commonName, value: name) }
    }

    public var attributes: [Attribute]

    public init(_ attributes: [Attribute]) {
        self.attributes = attributes
    }

    public init(derNode: DERNode) throws(DERError) {
        var attributes: [Attribute] = []
        for relativeName in try derNode.members(.sequence) {
            let pair = try relativeName.members(.set, count: 1...1, in: "relative distinguished name")[0]
            let typeAndValue = try pair.members(.sequence, count: 2...2, in: "attribute type and value")
            let (value, kind) = try typeAndValue[1].directoryString()
            attributes.append(Attribute(type: try typeAndValue[0].objectIdentifier(), value: value, kind: kind))
        }
        self.attributes = attributes
    }

    public var derNode: DERNode {
        .sequence(
            attributes.map { attribute in
                .set([.sequence([.objectIdentifier(attribute.type), attribute.kind.node(attribute.value)])])
            })
    }

    /// The values of every attribute of this type, in order.
    public func values(of type: ASN1ObjectIdentifier) -> [String] {
        attributes.filter { $0.type == type }.map(\.value)
    }

    public var commonName: String? {
        values(of: .commonName).first
    }

    public var nodeID: UInt64? { get throws(CertificateError) { try hexValue(of: .matterNodeID, digits: 16) } }
    public var firmwareSigningID: UInt64? {
        get throws(CertificateError) { try hexValue(of: .matterFirmwareSigningID, digits: 16) }
    }
    public var icacID: UInt64? { get throws(CertificateError) { try hexValue(of: .matterICACID, digits: 16) } }
    public var rcacID: UInt64? { get throws(CertificateError) { try hexValue(of: .matterRCACID, digits: 16) } }
    public var fabricID: UInt64? { get throws(CertificateError) { try hexValue(of: .matterFabricID, digits: 16) } }
    public var vendorID: UInt16? {
        get throws(CertificateError) { try hexValue(of: .matterVendorID, digits: 4).map { UInt16($0) } }
    }
    public var productID: UInt16? {
        get throws(CertificateError) { try hexValue(of: .matterProductID, digits: 4).map { UInt16($0) } }
    }

    /// Matter Core §6.6.2.1.2: the CASE Authenticated Tags, in order.
    public var caseAuthenticatedTags: [UInt32] {
        get throws(CertificateError) {
            var tags: [UInt32] = []
            for value in values(of: .matterCASEAuthenticatedTag) {
                guard let tag = Self.parseHex(value, digits: 8) else {
                    throw .invalidField("CASE Authenticated Tag", reason: "\"\(value)\" is not 8 uppercase hex digits")
                }
                tags.append(UInt32(tag))
            }
            return tags
        }
    }

    /// The value of the attribute of this type as fixed-width uppercase hex; nil when absent.
    public func hexValue(of type: ASN1ObjectIdentifier, digits: Int) throws(CertificateError) -> UInt64? {
        let values = values(of: type)
        guard let value = values.first else { return nil }
        guard values.count == 1 else {
            throw .invalidField(
                "name attribute \(type)", reason: "appears \(values.count) times, at most once is allowed")
        }
        guard let number = Self.parseHex(value, digits: digits) else {
            throw .invalidField("name attribute \(type)", reason: "\"\(value)\" is not \(digits) uppercase hex digits")
        }
        return number
    }

    static func parseHex(_ text: String, digits: Int) -> UInt64? {
        let utf8 = Array(text.utf8)
        guard utf8.count == digits, digits <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}

/// Fixed-width uppercase hexadecimal.
func hex(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
