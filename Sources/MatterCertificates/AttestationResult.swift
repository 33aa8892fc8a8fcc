/// Whether a device passed attestation; an untrusted device may still be accepted by an explicit user choice.
public enum AttestationVerdict: Hashable, Sendable {
    case trusted
    case untrusted(reasons: [AttestationError])
}

/// What attestation established about the device, recorded whatever the verdict.
public struct AttestationFacts: Hashable, Sendable {
    /// From the DAC's subject; nil when it has none.
    public let vendorID: UInt16?
    public let productID: UInt16?
    /// The DAC's public key, which signs the NOCSR elements later (Matter Core §11.18.6.6).
    public let dacPublicKey: [UInt8]
    /// Nil when the certification declaration does not parse.
    public let certificationType: CertificationType?
    public let declarationSignedWithTestKey: Bool?
}

public struct AttestationResult: Hashable, Sendable {
    public let verdict: AttestationVerdict
    /// Nil only when the DAC itself does not parse.
    public let facts: AttestationFacts?

    public var isTrusted: Bool { verdict == .trusted }

    /// The reasons an untrusted device was refused; empty when trusted.
    public var reasons: [AttestationError] {
        if case .untrusted(let reasons) = verdict { reasons } else { [] }
    }
}
