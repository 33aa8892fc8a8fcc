/// One check of device attestation (Matter Core §6.2.3), in the style of swift-certificates' verifier
/// policies: it looks at the parsed evidence and names every rule the device breaks.
protocol AttestationPolicy: Sendable {
    func failures(in evidence: AttestationEvidence) -> [AttestationError]
}

/// What the device sent and what the commissioner knows, parsed once for every policy.
struct AttestationEvidence: Sendable {
    let dac: X509Certificate
    let pai: X509Certificate
    /// The trust store PAA that signed the PAI, else the first one the PAI names; nil when none matches.
    let paa: X509Certificate?
    let elementsTLV: [UInt8]
    let elements: AttestationElements
    let attestationSignature: [UInt8]
    let attestationChallenge: [UInt8]
    let nonce: [UInt8]
    /// Nil when the declaration does not parse (that failure is reported once, by the verifier).
    let declaration: SignedCertificationDeclaration?
    let deviceVendorID: UInt16?
    let deviceProductID: UInt16?
    let now: CertificateTime
    let developmentMode: Bool
    let signingKeys: [CertificationDeclarationSigningKey]

    /// The chain from the device up, with the PAA when one was found.
    var chain: [(AttestationCertificateRole, X509Certificate)] {
        [(.dac, dac), (.pai, pai)] + (paa.map { [(.paa, $0)] } ?? [])
    }
}
