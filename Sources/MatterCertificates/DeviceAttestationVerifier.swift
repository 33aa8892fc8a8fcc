// Matter Core §6.2.3 Device Attestation Procedure, commissioner side: pure verification of what a device
// returned to CertificateChainRequest and AttestationRequest (Matter Core 1.1 §11.17.6).
public struct DeviceAttestationVerifier: Sendable {
    public var trustStore: PAATrustStore
    /// Accept test-grade certification declarations (the CSA test key, or development-and-test type).
    public var developmentMode: Bool
    public var signingKeys: [CertificationDeclarationSigningKey]

    private static let policies: [any AttestationPolicy] = [
        AttestationNoncePolicy(), AttestationSignaturePolicy(),
        ChainSignaturePolicy(), ValidityPolicy(), ExtensionCriticalityPolicy(), BasicConstraintsPolicy(),
        KeyUsagePolicy(),
        KeyIdentifierPolicy(), VendorProductPolicy(),
        DeclarationSignaturePolicy(), DeclarationFormatPolicy(), DeclarationIdentityPolicy(),
        DeclarationAuthorizedPAAPolicy(),
    ]

    public init(
        trustStore: PAATrustStore, developmentMode: Bool,
        signingKeys: [CertificationDeclarationSigningKey] = CertificationDeclarationSigningKey.builtIn
    ) {
        self.trustStore = trustStore
        self.developmentMode = developmentMode
        self.signingKeys = signingKeys
    }

    /// Runs every check and reports every failure, so the user sees all the reasons at once.
    /// - Parameters:
    ///   - attestationSignature: the raw ECDSA r ‖ s (64 octets) of the AttestationResponse.
    ///   - attestationChallenge: the 16-octet challenge of the PASE session the response came through.
    ///   - nonce: the AttestationNonce we sent.
    ///   - deviceVendorID: the VendorID and ProductID the device declares in its Basic Information cluster, which the
    ///     declaration must cover (§6.2.3); nil skips that comparison.
    ///   - now: seconds since 1970-01-01T00:00:00Z.
    public func verify(
        dac: [UInt8], pai: [UInt8], attestationElements: [UInt8], attestationSignature: [UInt8],
        attestationChallenge: [UInt8], nonce: [UInt8], deviceVendorID: UInt16?, deviceProductID: UInt16?,
        now: Int64
    ) -> AttestationResult {
        let dacCertificate: X509Certificate
        do {
            dacCertificate = try X509Certificate(derEncoded: dac)
        } catch {
            return AttestationResult(verdict: .untrusted(reasons: [.malformedCertificate(.dac, error)]), facts: nil)
        }
        var failures: [AttestationError] = []
        var paiCertificate: X509Certificate?
        do {
            paiCertificate = try X509Certificate(derEncoded: pai)
        } catch {
            failures.append(.malformedCertificate(.pai, error))
        }
        var elements: AttestationElements?
        do {
            elements = try AttestationElements(tlv: attestationElements)
        } catch {
            failures.append(error)
        }
        if attestationSignature.count != CertificateLimits.signatureLength {
            failures.append(
                .invalidField(
                    "attestation signature",
                    reason: "\(attestationSignature.count) octets, expected \(CertificateLimits.signatureLength)"))
        }
        if attestationChallenge.count != CertificateLimits.attestationChallengeLength {
            failures.append(
                .invalidField(
                    "attestation challenge",
                    reason:
                        "\(attestationChallenge.count) octets, expected \(CertificateLimits.attestationChallengeLength)"
                ))
        }
        var time: CertificateTime?
        do {
            time = try CertificateTime(secondsSinceUnixEpoch: now)
        } catch {
            failures.append(.invalidField("now", reason: error.description))
        }
        var declaration: SignedCertificationDeclaration?
        var declarationFailures: [AttestationError] = []
        if let elements {
            do {
                declaration = try SignedCertificationDeclaration(derEncoded: elements.certificationDeclaration)
            } catch {
                declarationFailures = [.malformedDeclaration(error)]
            }
        }
        // Matter Core §6.2.2.2 (with the fallback encoding); nil fields when absent or malformed.
        let dacIdentifiers = try? dacCertificate.attestationIdentifiers
        let facts = AttestationFacts(
            vendorID: dacIdentifiers?.vendorID, productID: dacIdentifiers?.productID,
            dacPublicKey: dacCertificate.publicKey, certificationType: declaration?.declaration.certificationType,
            declarationSignedWithTestKey: declaration.map { signed in
                signingKeys.contains { $0.isTestKey && $0.keyIdentifier == signed.signerKeyIdentifier }
            })
        // Without these, no policy can run; a declaration that does not parse only silences the declaration policies.
        guard let paiCertificate, let elements, let time, failures.isEmpty else {
            return AttestationResult(verdict: .untrusted(reasons: failures + declarationFailures), facts: facts)
        }
        let candidates = trustStore.candidateIssuers(of: paiCertificate)
        let paa =
            candidates.first { (try? paiCertificate.verifySignature(issuerPublicKey: $0.publicKey)) != nil }
            ?? candidates.first
        let evidence = AttestationEvidence(
            dac: dacCertificate, pai: paiCertificate, paa: paa, elementsTLV: attestationElements, elements: elements,
            attestationSignature: attestationSignature, attestationChallenge: attestationChallenge, nonce: nonce,
            declaration: declaration, deviceVendorID: deviceVendorID, deviceProductID: deviceProductID, now: time,
            developmentMode: developmentMode, signingKeys: signingKeys)
        failures += declarationFailures + Self.policies.flatMap { $0.failures(in: evidence) }
        return AttestationResult(verdict: failures.isEmpty ? .trusted : .untrusted(reasons: failures), facts: facts)
    }
}
