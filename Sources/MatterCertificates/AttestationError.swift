import MatterTLV

/// The certificates of the device attestation chain (Matter Core §6.2.2).
public enum AttestationCertificateRole: String, Hashable, Sendable, CustomStringConvertible {
    case dac = "DAC", pai = "PAI", paa = "PAA"

    public var description: String { rawValue }
}

/// Why device attestation or a NOCSR was refused, worded for the user who decides whether to accept the device.
public enum AttestationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A certificate that does not parse as the X.509 profile Matter uses.
    case malformedCertificate(AttestationCertificateRole, CertificateError)
    /// Attestation or NOCSR elements that are not the TLV structure of Matter Core 1.1 §11.17.5.4 / §11.17.5.6.
    case malformedElements(String, TLVError)
    /// A field with a well-formed encoding but a value its structure forbids.
    case invalidField(String, reason: String)
    case malformedDeclaration(CertificateError)
    case malformedSigningRequest(CertificateError)

    case nonceMismatch(String)
    case attestationSignatureInvalid(String)
    case signingRequestSignatureInvalid

    case paaNotFound(authorityKeyIdentifier: [UInt8]?)
    case certificateSignatureInvalid(AttestationCertificateRole, issuer: AttestationCertificateRole)
    case notYetValid(AttestationCertificateRole, notBefore: CertificateTime)
    case expired(AttestationCertificateRole, notAfter: CertificateTime)
    /// The issuer was not valid when the DAC was issued (its notBefore): §6.2.3 checks the chain at issuance.
    case notValidAtIssuance(AttestationCertificateRole, dacNotBefore: CertificateTime)
    case extensionCriticality(AttestationCertificateRole, extension: String, mustBeCritical: Bool)
    case basicConstraints(AttestationCertificateRole, String)
    case keyUsage(AttestationCertificateRole, String)
    case keyIdentifier(AttestationCertificateRole, String)
    /// A vendor or product ID that is not encoded as §6.2.2.2 requires.
    case invalidIdentifier(AttestationCertificateRole, CertificateError)
    case missingIdentifier(AttestationCertificateRole, String)
    case vendorIDMismatch(AttestationCertificateRole, UInt16, AttestationCertificateRole, UInt16)
    case productIDMismatch(AttestationCertificateRole, UInt16, AttestationCertificateRole, UInt16)

    case unknownDeclarationSigningKey([UInt8])
    case declarationSignatureInvalid
    case developmentDeclarationRefused(String)
    case declarationFormatVersion(UInt8)
    /// A certification declaration field whose value §6.3.1 does not allow.
    case declarationField(String, reason: String)
    case declarationVendorMismatch(declared: UInt16, actual: UInt16, source: String)
    case declarationProductMissing(UInt16, source: String)
    case declarationProductMismatch(declared: UInt16, actual: UInt16, source: String)
    case paaNotAuthorized([UInt8])

    public var description: String {
        "\(summary) (Matter Core \(rule))"
    }

    /// The section of the Matter Core specification whose rule was broken.
    public var rule: String {
        switch self {
        case .malformedCertificate(let role, _), .extensionCriticality(let role, _, _), .basicConstraints(let role, _),
            .keyUsage(let role, _), .keyIdentifier(let role, _):
            Self.profileSection(role)
        case .invalidIdentifier, .missingIdentifier, .vendorIDMismatch, .productIDMismatch: "§6.2.2.2"
        case .malformedElements, .nonceMismatch, .attestationSignatureInvalid, .malformedSigningRequest,
            .signingRequestSignatureInvalid:
            "1.1 §11.17.5"
        case .malformedDeclaration, .unknownDeclarationSigningKey, .declarationSignatureInvalid: "§6.3.2"
        case .developmentDeclarationRefused, .declarationFormatVersion, .declarationField, .declarationVendorMismatch,
            .declarationProductMissing, .declarationProductMismatch, .paaNotAuthorized:
            "§6.3.1"
        case .invalidField, .paaNotFound, .certificateSignatureInvalid, .notYetValid, .expired, .notValidAtIssuance:
            "§6.2.3"
        }
    }

    /// What is wrong, without the rule.
    public var summary: String {
        switch self {
        case .malformedCertificate(let role, let error):
            "\(role) is not a valid certificate: \(error)"
        case .malformedElements(let name, let error):
            "\(name) are malformed: \(error)"
        case .invalidField(let field, let reason):
            "\(field): \(reason)"
        case .malformedDeclaration(let error):
            "certification declaration is malformed: \(error)"
        case .malformedSigningRequest(let error):
            "certificate signing request is malformed: \(error)"
        case .nonceMismatch(let which):
            "\(which) differs from the nonce we sent"
        case .attestationSignatureInvalid(let what):
            "\(what) signature does not verify with the DAC's key"
        case .signingRequestSignatureInvalid:
            "certificate signing request is not signed by the key it asks a certificate for"
        case .paaNotFound(let identifier?):
            "no PAA in the trust store matches the PAI's issuer (authority key ID \(Self.colonHex(identifier)))"
        case .paaNotFound(nil):
            "no PAA in the trust store matches the PAI's issuer name (the PAI has no authority key ID)"
        case .certificateSignatureInvalid(let role, let issuer):
            "\(role) signature does not verify with the \(issuer)'s key"
        case .notYetValid(let role, let notBefore):
            "\(role) is not valid until \(notBefore)"
        case .expired(let role, let notAfter):
            "\(role) expired at \(notAfter)"
        case .notValidAtIssuance(let role, let dacNotBefore):
            "\(role) was not valid when the DAC was issued (\(dacNotBefore))"
        case .extensionCriticality(let role, let name, true):
            "\(role) \(name) extension must be marked critical"
        case .extensionCriticality(let role, let name, false):
            "\(role) \(name) extension must not be marked critical"
        case .basicConstraints(let role, let reason):
            "\(role) basic constraints: \(reason)"
        case .keyUsage(let role, let reason):
            "\(role) key usage: \(reason)"
        case .keyIdentifier(let role, let reason):
            "\(role) key identifier: \(reason)"
        case .invalidIdentifier(let role, let error):
            "\(role) subject's vendor or product ID: \(error)"
        case .missingIdentifier(let role, let what):
            "\(role) has no \(what)"
        case .vendorIDMismatch(let role, let value, let otherRole, let other):
            "\(role) vendor ID \(Self.hex16(value)) differs from \(otherRole) vendor ID \(Self.hex16(other))"
        case .productIDMismatch(let role, let value, let otherRole, let other):
            "\(role) product ID \(Self.hex16(value)) differs from \(otherRole) product ID \(Self.hex16(other))"
        case .unknownDeclarationSigningKey(let identifier):
            "certification declaration is signed by an unknown key (key ID \(Self.colonHex(identifier)))"
        case .declarationSignatureInvalid:
            "certification declaration signature does not verify with its signing key"
        case .developmentDeclarationRefused(let reason):
            "certification declaration \(reason); accepted only in development mode"
        case .declarationFormatVersion(let version):
            "certification declaration format version \(version) is not 1"
        case .declarationField(let field, let reason):
            "certification declaration \(field): \(reason)"
        case .declarationVendorMismatch(let declared, let actual, let source):
            "certification declaration is for vendor ID \(Self.hex16(declared)), \(source) has \(Self.hex16(actual))"
        case .declarationProductMissing(let productID, let source):
            "certification declaration does not list product ID \(Self.hex16(productID)) (\(source))"
        case .declarationProductMismatch(let declared, let actual, let source):
            "certification declaration is for product ID \(Self.hex16(declared)), \(source) has \(Self.hex16(actual))"
        case .paaNotAuthorized(let identifier):
            "PAA (key ID \(Self.colonHex(identifier))) is not in the certification declaration's authorized PAA list"
        }
    }

    /// The certificate profiles: §6.2.2.3 the DAC, §6.2.2.4 the PAI, §6.2.2.5 the PAA.
    static func profileSection(_ role: AttestationCertificateRole) -> String {
        switch role {
        case .dac: "§6.2.2.3"
        case .pai: "§6.2.2.4"
        case .paa: "§6.2.2.5"
        }
    }

    static func hex16(_ value: UInt16) -> String {
        "0x" + hex(UInt64(value), digits: 4)
    }

    static func colonHex(_ bytes: [UInt8]) -> String {
        bytes.map { hex(UInt64($0), digits: 2) }.joined(separator: ":")
    }
}
