import MatterTLV

// Matter Core §6.5.2 Matter certificate TLV encoding: an anonymous structure with tags 1–11 in order.
extension MatterCertificate {
    public init(tlv bytes: [UInt8]) throws(CertificateError) {
        let root = try decodingTLV("certificate") { () throws(TLVError) in try TLVReader.decode(bytes) }
        guard root.tag == .anonymous, case .structure(let members) = root.value else {
            throw .invalidField("certificate", reason: "expected an anonymous structure, found \(root.value.kind)")
        }
        var fields = FieldReader(members: members)

        serialNumber = try fields.bytes(MatterCertificateTag.serialNumber, "serial-num")
        guard (1...CertificateLimits.maximumSerialNumberLength).contains(serialNumber.count) else {
            throw .invalidField(
                "serial-num",
                reason: "\(serialNumber.count) octets, expected 1 to \(CertificateLimits.maximumSerialNumberLength)")
        }
        try fields.expectConstant(
            MatterCertificateTag.signatureAlgorithm, "sig-algo", MatterCertificateTag.ecdsaWithSHA256)
        issuer = try Self.name(fields.list(MatterCertificateTag.issuer, "issuer"), field: "issuer")
        notBefore = try fields.uint32(MatterCertificateTag.notBefore, "not-before")
        notAfter = try fields.uint32(MatterCertificateTag.notAfter, "not-after")
        subject = try Self.name(fields.list(MatterCertificateTag.subject, "subject"), field: "subject")
        try fields.expectConstant(
            MatterCertificateTag.publicKeyAlgorithm, "pub-key-algo", MatterCertificateTag.ecPublicKey)
        try fields.expectConstant(MatterCertificateTag.ellipticCurve, "ec-curve-id", MatterCertificateTag.prime256v1)
        publicKey = try fields.bytes(MatterCertificateTag.publicKey, "ec-pub-key")
        guard publicKey.count == CertificateLimits.publicKeyLength, publicKey.first == 0x04 else {
            throw .invalidField(
                "ec-pub-key", reason: "not a \(CertificateLimits.publicKeyLength)-byte uncompressed P-256 point")
        }
        extensions = try Self.extensions(fields.list(MatterCertificateTag.extensions, "extensions"))
        signature = try fields.bytes(MatterCertificateTag.signature, "signature")
        guard signature.count == CertificateLimits.signatureLength else {
            throw .invalidField(
                "signature", reason: "\(signature.count) bytes, expected \(CertificateLimits.signatureLength)")
        }
        try fields.expectEnd()
    }

    public func tlvEncoded() throws(CertificateError) -> [UInt8] {
        let members: [TLVElement] = [
            TLVElement(tag: .context(MatterCertificateTag.serialNumber), .bytes(serialNumber)),
            TLVElement(
                tag: .context(MatterCertificateTag.signatureAlgorithm), .unsigned(MatterCertificateTag.ecdsaWithSHA256)),
            TLVElement(tag: .context(MatterCertificateTag.issuer), .list(try Self.elements(issuer, field: "issuer"))),
            TLVElement(tag: .context(MatterCertificateTag.notBefore), .unsigned(UInt64(notBefore))),
            TLVElement(tag: .context(MatterCertificateTag.notAfter), .unsigned(UInt64(notAfter))),
            TLVElement(
                tag: .context(MatterCertificateTag.subject), .list(try Self.elements(subject, field: "subject"))),
            TLVElement(
                tag: .context(MatterCertificateTag.publicKeyAlgorithm), .unsigned(MatterCertificateTag.ecPublicKey)),
            TLVElement(tag: .context(MatterCertificateTag.ellipticCurve), .unsigned(MatterCertificateTag.prime256v1)),
            TLVElement(tag: .context(MatterCertificateTag.publicKey), .bytes(publicKey)),
            TLVElement(tag: .context(MatterCertificateTag.extensions), .list(extensions.map(Self.element))),
            TLVElement(tag: .context(MatterCertificateTag.signature), .bytes(signature)),
        ]
        return TLVWriter.encode(TLVElement(.structure(members)))
    }

    // Matter Core §6.5.6: each list member is one DN attribute, its tag naming the type.
    private static func name(_ members: [TLVElement], field: String) throws(CertificateError) -> DistinguishedName {
        guard members.count <= CertificateLimits.maximumDistinguishedNameAttributes else {
            throw .invalidField(
                field,
                reason:
                    "\(members.count) attributes, at most \(CertificateLimits.maximumDistinguishedNameAttributes) allowed"
            )
        }
        var attributes: [DistinguishedName.Attribute] = []
        for member in members {
            guard case .context(let tag) = member.tag else {
                throw .invalidField(field, reason: "attribute with a non-context tag")
            }
            let baseTag = tag & ~MatterNameTag.printableStringFlag
            let printable = tag & MatterNameTag.printableStringFlag != 0
            if let identifier = MatterNameTag.identifierAttributes.first(where: { $0.tag == baseTag }), !printable {
                guard case .unsigned(let value) = member.value, value >> (4 * identifier.hexDigits) == 0 else {
                    throw .invalidField(
                        field,
                        reason: "attribute \(tag) must be an unsigned integer of \(identifier.hexDigits * 4) bits")
                }
                attributes.append(
                    DistinguishedName.Attribute(type: identifier.type, value: hex(value, digits: identifier.hexDigits)))
            } else if let string = MatterNameTag.stringAttributes.first(where: { $0.tag == baseTag }) {
                guard case .utf8(let value) = member.value else {
                    throw .invalidField(
                        field, reason: "attribute \(tag) must be a UTF-8 string, found \(member.value.kind)")
                }
                // Matter Core §6.5.6.1: domain-component is always an IA5String.
                let kind: DirectoryStringKind = string.type == .domainComponent ? .ia5 : printable ? .printable : .utf8
                guard !(printable && kind == .ia5), kind.allows(value) else {
                    throw .invalidField(
                        field, reason: "attribute \(tag) value \"\(value)\" does not fit its string type")
                }
                attributes.append(DistinguishedName.Attribute(type: string.type, value: value, kind: kind))
            } else {
                throw .invalidField(field, reason: "unknown attribute tag \(tag)")
            }
        }
        return DistinguishedName(attributes)
    }

    private static func elements(_ name: DistinguishedName, field: String) throws(CertificateError) -> [TLVElement] {
        var elements: [TLVElement] = []
        for attribute in name.attributes {
            if let identifier = MatterNameTag.identifierAttributes.first(where: { $0.type == attribute.type }) {
                guard attribute.kind == .utf8,
                    let value = DistinguishedName.parseHex(attribute.value, digits: identifier.hexDigits)
                else {
                    throw .notMatterEncodable(
                        "\(field) attribute \(attribute.type) is not a UTF8String of \(identifier.hexDigits) uppercase hex digits"
                    )
                }
                elements.append(TLVElement(tag: .context(identifier.tag), .unsigned(value)))
            } else if let string = MatterNameTag.stringAttributes.first(where: { $0.type == attribute.type }) {
                let expected: Set<DirectoryStringKind> =
                    attribute.type == .domainComponent ? [.ia5] : [.utf8, .printable]
                guard expected.contains(attribute.kind) else {
                    throw .notMatterEncodable(
                        "\(field) attribute \(attribute.type) uses a string type Matter cannot carry")
                }
                let tag = attribute.kind == .printable ? string.tag | MatterNameTag.printableStringFlag : string.tag
                elements.append(TLVElement(tag: .context(tag), .utf8(attribute.value)))
            } else {
                throw .notMatterEncodable("\(field) attribute \(attribute.type) has no Matter TLV tag")
            }
        }
        return elements
    }

    // Matter Core §6.5.11: a list of extensions, each at most once.
    private static func extensions(_ members: [TLVElement]) throws(CertificateError) -> [MatterCertificateExtension] {
        var extensions: [MatterCertificateExtension] = []
        var seenTags: Set<TLVTag> = []
        for member in members {
            guard seenTags.insert(member.tag).inserted || member.tag == .context(MatterExtensionTag.futureExtension)
            else {
                throw .invalidField("extensions", reason: "extension \(member.tag) appears more than once")
            }
            switch (member.tag, member.value) {
            case (.context(MatterExtensionTag.basicConstraints), .structure(let fields)):
                var reader = FieldReader(members: fields)
                let isCA = try reader.bool(MatterExtensionTag.isCertificateAuthority, "basic-constraints.is-ca")
                let pathLength = try reader.optionalUInt8(
                    MatterExtensionTag.pathLengthConstraint, "basic-constraints.path-len-constraint")
                try reader.expectEnd()
                extensions.append(
                    .basicConstraints(BasicConstraints(isCertificateAuthority: isCA, pathLengthConstraint: pathLength)))
            case (.context(MatterExtensionTag.keyUsage), .unsigned(let bits)):
                guard let narrow = UInt16(exactly: bits), narrow != 0, narrow >> 9 == 0 else {
                    throw .invalidField("key-usage", reason: "\(bits) is not a non-empty set of the 9 key usage bits")
                }
                extensions.append(.keyUsage(KeyUsage(rawValue: narrow)))
            case (.context(MatterExtensionTag.extendedKeyUsage), .array(let purposes)):
                var decoded: [KeyPurpose] = []
                for purpose in purposes {
                    guard case .unsigned(let raw) = purpose.value, let id = UInt8(exactly: raw),
                        let known = KeyPurpose(rawValue: id)
                    else {
                        throw .invalidField("extended-key-usage", reason: "unknown key purpose \(purpose.value)")
                    }
                    decoded.append(known)
                }
                guard !decoded.isEmpty else {
                    throw .invalidField("extended-key-usage", reason: "at least one key purpose is required")
                }
                extensions.append(.extendedKeyUsage(decoded))
            case (.context(MatterExtensionTag.subjectKeyIdentifier), .bytes(let identifier)):
                extensions.append(.subjectKeyIdentifier(try keyIdentifier(identifier, "subject-key-id")))
            case (.context(MatterExtensionTag.authorityKeyIdentifier), .bytes(let identifier)):
                extensions.append(.authorityKeyIdentifier(try keyIdentifier(identifier, "authority-key-id")))
            case (.context(MatterExtensionTag.futureExtension), .bytes(let encoded)):
                // It must be one well-formed Extension, since the X.509 form embeds it as is.
                _ = try decodingDER("future-extension") { () throws(DERError) in
                    try X509Extension(derNode: DERParser.parse(encoded))
                }
                extensions.append(.futureExtension(encoded))
            default:
                throw .invalidField(
                    "extensions", reason: "unknown extension or wrong type: tag \(member.tag), \(member.value.kind)")
            }
        }
        return extensions
    }

    private static func keyIdentifier(_ identifier: [UInt8], _ field: String) throws(CertificateError) -> [UInt8] {
        guard identifier.count == CertificateLimits.keyIdentifierLength else {
            throw .invalidField(
                field, reason: "\(identifier.count) bytes, expected \(CertificateLimits.keyIdentifierLength)")
        }
        return identifier
    }

    private static func element(_ certificateExtension: MatterCertificateExtension) -> TLVElement {
        switch certificateExtension {
        case .basicConstraints(let constraints):
            var fields = [
                TLVElement(
                    tag: .context(MatterExtensionTag.isCertificateAuthority), .bool(constraints.isCertificateAuthority))
            ]
            if let pathLength = constraints.pathLengthConstraint {
                fields.append(
                    TLVElement(tag: .context(MatterExtensionTag.pathLengthConstraint), .unsigned(UInt64(pathLength))))
            }
            return TLVElement(tag: .context(MatterExtensionTag.basicConstraints), .structure(fields))
        case .keyUsage(let usage):
            return TLVElement(tag: .context(MatterExtensionTag.keyUsage), .unsigned(UInt64(usage.rawValue)))
        case .extendedKeyUsage(let purposes):
            return TLVElement(
                tag: .context(MatterExtensionTag.extendedKeyUsage),
                .array(purposes.map { TLVElement(.unsigned(UInt64($0.rawValue))) }))
        case .subjectKeyIdentifier(let identifier):
            return TLVElement(tag: .context(MatterExtensionTag.subjectKeyIdentifier), .bytes(identifier))
        case .authorityKeyIdentifier(let identifier):
            return TLVElement(tag: .context(MatterExtensionTag.authorityKeyIdentifier), .bytes(identifier))
        case .futureExtension(let encoded):
            return TLVElement(tag: .context(MatterExtensionTag.futureExtension), .bytes(encoded))
        }
    }
}

/// Reads the members of a TLV structure in order, each with the expected context tag.
private struct FieldReader {
    let members: [TLVElement]
    var index = 0

    init(members: [TLVElement]) {
        self.members = members
    }

    private mutating func next(_ tag: UInt8, _ field: String) throws(CertificateError) -> TLVValue {
        guard index < members.count, members[index].tag == .context(tag) else {
            throw .invalidField(field, reason: "missing: expected context tag \(tag) at member \(index)")
        }
        defer { index += 1 }
        return members[index].value
    }

    mutating func bytes(_ tag: UInt8, _ field: String) throws(CertificateError) -> [UInt8] {
        guard case .bytes(let value) = try next(tag, field) else {
            throw .invalidField(field, reason: "expected an octet string")
        }
        return value
    }

    mutating func list(_ tag: UInt8, _ field: String) throws(CertificateError) -> [TLVElement] {
        guard case .list(let value) = try next(tag, field) else {
            throw .invalidField(field, reason: "expected a list")
        }
        return value
    }

    mutating func uint32(_ tag: UInt8, _ field: String) throws(CertificateError) -> UInt32 {
        guard case .unsigned(let value) = try next(tag, field), let narrow = UInt32(exactly: value) else {
            throw .invalidField(field, reason: "expected an unsigned integer of 32 bits")
        }
        return narrow
    }

    mutating func bool(_ tag: UInt8, _ field: String) throws(CertificateError) -> Bool {
        guard case .bool(let value) = try next(tag, field) else {
            throw .invalidField(field, reason: "expected a boolean")
        }
        return value
    }

    mutating func optionalUInt8(_ tag: UInt8, _ field: String) throws(CertificateError) -> UInt8? {
        guard index < members.count, members[index].tag == .context(tag) else { return nil }
        guard case .unsigned(let value) = try next(tag, field), let narrow = UInt8(exactly: value) else {
            throw .invalidField(field, reason: "expected an unsigned integer of 8 bits")
        }
        return narrow
    }

    mutating func expectConstant(_ tag: UInt8, _ field: String, _ expected: UInt64) throws(CertificateError) {
        guard case .unsigned(let value) = try next(tag, field) else {
            throw .invalidField(field, reason: "expected an unsigned integer")
        }
        guard value == expected else {
            throw .unsupported("\(field) \(value); Matter defines only \(expected)")
        }
    }

    func expectEnd() throws(CertificateError) {
        guard index == members.count else {
            throw .invalidField(
                "certificate", reason: "unexpected member with tag \(members[index].tag) at position \(index)")
        }
    }
}
