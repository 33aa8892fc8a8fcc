// Matter Core §6.2.2 Device Attestation Certificate profiles and §6.2.3 chain validation: DAC → PAI → PAA.
// Each policy enforces one rule of the profiles (§6.2.2.3 DAC, §6.2.2.4 PAI, §6.2.2.5 PAA) on every
// certificate of the chain it applies to, and names the certificate that breaks it.

/// The DAC is signed by the PAI, and the PAI by a PAA of the trust store.
struct ChainSignaturePolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        var failures: [AttestationError] = []
        if (try? evidence.dac.verifySignature(issuerPublicKey: evidence.pai.publicKey)) == nil {
            failures.append(.certificateSignatureInvalid(.dac, issuer: .pai))
        }
        if let paa = evidence.paa {
            if (try? evidence.pai.verifySignature(issuerPublicKey: paa.publicKey)) == nil {
                failures.append(.certificateSignatureInvalid(.pai, issuer: .paa))
            }
        } else {
            failures.append(.paaNotFound(authorityKeyIdentifier: (try? evidence.pai.authorityKeyIdentifier) ?? nil))
        }
        return failures
    }
}

/// The DAC is valid now; its issuers are checked at the DAC's issuance (its notBefore), as §6.2.3 validates
/// the chain, so a device whose PAI or PAA has expired since it was made stays trusted. notAfter
/// 9999-12-31T23:59:59Z never expires.
struct ValidityPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        var failures: [AttestationError] = []
        if evidence.now < evidence.dac.notBefore {
            failures.append(.notYetValid(.dac, notBefore: evidence.dac.notBefore))
        } else if evidence.dac.notAfter < evidence.now {
            failures.append(.expired(.dac, notAfter: evidence.dac.notAfter))
        }
        let issuance = evidence.dac.notBefore
        for (role, certificate) in evidence.chain.dropFirst() where !certificate.isValid(at: issuance) {
            failures.append(.notValidAtIssuance(role, dacNotBefore: issuance))
        }
        return failures
    }
}

/// Basic constraints and key usage are critical; the key identifiers are not (RFC 5280 §4.2.1.1, §4.2.1.2).
struct ExtensionCriticalityPolicy: AttestationPolicy {
    private static let rules: [(ASN1ObjectIdentifier, String, mustBeCritical: Bool)] = [
        (.basicConstraints, "basic constraints", true), (.keyUsage, "key usage", true),
        (.subjectKeyIdentifier, "subject key identifier", false),
        (.authorityKeyIdentifier, "authority key identifier", false),
    ]

    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        evidence.chain.flatMap { role, certificate in
            Self.rules.compactMap { identifier, name, mustBeCritical in
                guard let found = certificate.extension(identifier), found.isCritical != mustBeCritical else {
                    return nil
                }
                return .extensionCriticality(role, extension: name, mustBeCritical: mustBeCritical)
            }
        }
    }
}

/// The DAC is no CA and carries no path length; the PAI is a CA with path length 0; the PAA a CA with
/// path length 1 or none.
struct BasicConstraintsPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        evidence.chain.compactMap { role, certificate in
            let constraints: BasicConstraints?
            do throws(CertificateError) {
                constraints = try certificate.basicConstraints
            } catch {
                return .basicConstraints(role, error.description)
            }
            guard let constraints else { return .basicConstraints(role, "extension missing") }
            switch role {
            case .dac where constraints.isCertificateAuthority || constraints.pathLengthConstraint != nil:
                return .basicConstraints(role, "a DAC must not be a CA nor carry a path length")
            case .pai where !constraints.isCertificateAuthority || constraints.pathLengthConstraint != 0:
                return .basicConstraints(role, "a PAI must be a CA with path length 0")
            case .paa where !constraints.isCertificateAuthority || (constraints.pathLengthConstraint ?? 1) != 1:
                return .basicConstraints(role, "a PAA must be a CA with path length 1 or none")
            default:
                return nil
            }
        }
    }
}

/// Exact key usage sets: the DAC only signs (digitalSignature alone); a PAI or PAA signs certificates and CRLs
/// (keyCertSign and cRLSign) and may also sign (digitalSignature), nothing else.
struct KeyUsagePolicy: AttestationPolicy {
    private static let authorityRequired: KeyUsage = [.keyCertSign, .cRLSign]
    private static let authorityAllowed: KeyUsage = [.keyCertSign, .cRLSign, .digitalSignature]

    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        evidence.chain.compactMap { role, certificate in
            let usage: KeyUsage?
            do throws(CertificateError) {
                usage = try certificate.keyUsage
            } catch {
                return .keyUsage(role, error.description)
            }
            guard let usage else { return .keyUsage(role, "extension missing") }
            if role == .dac {
                return usage == .digitalSignature ? nil : .keyUsage(role, "a DAC must have digitalSignature alone")
            }
            guard usage.isSuperset(of: Self.authorityRequired), Self.authorityAllowed.isSuperset(of: usage) else {
                return .keyUsage(
                    role, "a \(role) must have keyCertSign and cRLSign, and nothing but digitalSignature besides")
            }
            return nil
        }
    }
}

/// Every certificate names its key (subject key identifier), the DAC and PAI their issuer's (authority key
/// identifier), each of 20 octets; the DAC's authority key identifier is the PAI's subject key identifier.
/// (The PAI's names the PAA: that is how the PAA was found, or `ChainSignaturePolicy` reports it missing.)
struct KeyIdentifierPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        var failures: [AttestationError] = []
        var paiSubjectIdentifier: [UInt8]?
        var dacAuthorityIdentifier: [UInt8]?
        for (role, certificate) in evidence.chain {
            let subject = Self.check("subject", of: role, required: true, failures: &failures) {
                () throws(CertificateError) in
                try certificate.subjectKeyIdentifier
            }
            let authority = Self.check("authority", of: role, required: role != .paa, failures: &failures) {
                () throws(CertificateError) in
                try certificate.authorityKeyIdentifier
            }
            if role == .pai { paiSubjectIdentifier = subject }
            if role == .dac { dacAuthorityIdentifier = authority }
        }
        if let dacAuthorityIdentifier, let paiSubjectIdentifier, dacAuthorityIdentifier != paiSubjectIdentifier {
            failures.append(
                .keyIdentifier(.dac, "the authority key identifier is not the PAI's subject key identifier"))
        }
        return failures
    }

    /// The identifier when it is present and well formed; otherwise the failure is recorded and nil returned.
    private static func check(
        _ kind: String, of role: AttestationCertificateRole, required: Bool, failures: inout [AttestationError],
        _ read: () throws(CertificateError) -> [UInt8]?
    ) -> [UInt8]? {
        let identifier: [UInt8]?
        do throws(CertificateError) {
            identifier = try read()
        } catch {
            failures.append(.keyIdentifier(role, "the \(kind) key identifier is malformed: \(error)"))
            return nil
        }
        guard let identifier else {
            if required { failures.append(.keyIdentifier(role, "the \(kind) key identifier extension is missing")) }
            return nil
        }
        guard identifier.count == CertificateLimits.keyIdentifierLength else {
            failures.append(
                .keyIdentifier(
                    role,
                    "the \(kind) key identifier has \(identifier.count) octets, expected \(CertificateLimits.keyIdentifierLength)"
                ))
            return nil
        }
        return identifier
    }
}
