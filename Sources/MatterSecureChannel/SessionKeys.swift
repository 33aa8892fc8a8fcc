import MatterCrypto

// Matter Core §4.14.1.4 / §4.14.2.6: the keys of an established session, derived from the shared secret:
// I2RKey ‖ R2IKey ‖ AttestationChallenge = HKDF-SHA256(secret, salt, info, 48).
public struct SessionKeys: Hashable, Sendable, CustomStringConvertible {
    /// Encrypts what the initiator sends.
    public let initiatorToResponder: [UInt8]
    /// Encrypts what the responder sends.
    public let responderToInitiator: [UInt8]
    /// Binds device attestation to this session (§6.2.3).
    public let attestationChallenge: [UInt8]

    static let info = Array("SessionKeys".utf8)
    /// §4.14.2.5: a resumed CASE session derives its keys under this info instead.
    static let resumptionInfo = Array("SessionResumptionKeys".utf8)

    public init(sharedSecret: [UInt8], salt: [UInt8]) throws(CryptoError) {
        try self.init(sharedSecret: sharedSecret, salt: salt, info: Self.info)
    }

    init(sharedSecret: [UInt8], salt: [UInt8], info: [UInt8]) throws(CryptoError) {
        let material = try HKDFSHA256.deriveKey(
            inputKeyMaterial: sharedSecret, salt: salt, info: info, outputLength: 48)
        initiatorToResponder = Array(material[0..<16])
        responderToInitiator = Array(material[16..<32])
        attestationChallenge = Array(material[32..<48])
    }

    /// Never prints key material.
    public var description: String { "SessionKeys(redacted)" }
}

/// A session that PASE or CASE established: what the exchange layer needs to encrypt and decrypt.
public struct EstablishedSession: Sendable, CustomStringConvertible {
    public let localSessionID: UInt16
    public let peerSessionID: UInt16
    public let isInitiator: Bool
    public let keys: SessionKeys
    /// What the peer said about itself; nil when it sent nothing (defaults apply).
    public let peerParameters: SessionParameters?
    /// Operational node IDs for a CASE session; nil for PASE, whose nonces use node ID 0 (§4.8.1.1).
    public let localNodeID: UInt64?
    public let peerNodeID: UInt64?
    /// What CASE leaves for resuming this session later; nil for PASE or a responder that offered no resumption ID.
    public let resumption: CASEResumptionRecord?
    /// True when CASE resumed an earlier session (Sigma2Resume) instead of running Sigma2 and Sigma3.
    public let isResumed: Bool

    public init(
        localSessionID: UInt16, peerSessionID: UInt16, isInitiator: Bool, keys: SessionKeys,
        peerParameters: SessionParameters?, localNodeID: UInt64? = nil, peerNodeID: UInt64? = nil,
        resumption: CASEResumptionRecord? = nil, isResumed: Bool = false
    ) {
        self.localSessionID = localSessionID
        self.peerSessionID = peerSessionID
        self.isInitiator = isInitiator
        self.keys = keys
        self.peerParameters = peerParameters
        self.localNodeID = localNodeID
        self.peerNodeID = peerNodeID
        self.resumption = resumption
        self.isResumed = isResumed
    }

    /// The node ID in the nonce of what this node sends.
    public var sendingNonceNodeID: UInt64 { localNodeID ?? 0 }
    /// The node ID in the nonce of what the peer sends.
    public var receivingNonceNodeID: UInt64 { peerNodeID ?? 0 }

    public var encryptionKey: [UInt8] { isInitiator ? keys.initiatorToResponder : keys.responderToInitiator }
    public var decryptionKey: [UInt8] { isInitiator ? keys.responderToInitiator : keys.initiatorToResponder }

    public var description: String {
        let peer = peerNodeID.map { ", peer node 0x\(String($0, radix: 16, uppercase: true))" } ?? ""
        return
            "EstablishedSession(local \(localSessionID), peer \(peerSessionID), \(isInitiator ? "initiator" : "responder")\(peer)\(isResumed ? ", resumed" : ""))"
    }
}
