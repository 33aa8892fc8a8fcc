// Matter Core §6.2.2 Device Attestation Certificate profiles and §6.2.3 chain validation: DAC → PAI → PAA.

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

/// Every certificate of the chain is valid now (notAfter 9999-12-31T23:59:59Z never expires).
struct ValidityPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        evidence.chain.compactMap { role, certificate in
            if evidence.now < certificate.notBefore { return .notYetValid(role, notBefore: certificate.notBefore) }
            if certificate.notAfter < evidence.now { return .expired(role, notAfter: certificate.notAfter) }
            return nil
        }
    }
}

/// §6.2.2.3–§6.2.2.5: the DAC is no CA, the PAI a CA with path length 0, the PAA a CA with path length 1 or none.
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
            case .dac where constraints.isCertificateAuthority:
                return .basicConstraints(role, "a DAC must not be a CA")
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

/// §6.2.2.3–§6.2.2.5: the DAC signs (digitalSignature), the PAI and PAA sign certificates (keyCertSign).
struct KeyUsagePolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        evidence.chain.compactMap { role, certificate in
            let usage: KeyUsage?
            do throws(CertificateError) {
                usage = try certificate.keyUsage
            } catch {
                return .keyUsage(role, error.description)
            }
            guard let usage else { return .keyUsage(role, "extension missing") }
            let required: KeyUsage = role == .dac ? .digitalSignature : .keyCertSign
            guard usage.contains(required) else {
                return .keyUsage(role, role == .dac ? "digitalSignature is required" : "keyCertSign is required")
            }
            return nil
        }
    }
}
