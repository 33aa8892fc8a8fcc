/// Limits of the DER, X.509 and Matter certificate codecs, each with its reason.
public enum CertificateLimits {
    /// Deepest DER nesting the parser accepts. An X.509 certificate nests 7 levels (an
    /// AuthorityKeyIdentifier inside its extension); 16 leaves room while bounding hostile input.
    public static let maximumDERDepth = 16

    /// Longest DER length field, in bytes after the first: 4 bytes describe 4 GiB, far beyond any
    /// certificate, and keep every length inside `Int` on all platforms.
    public static let maximumDERLengthOctets = 4

    /// Largest tag number the parser accepts: X.509 uses numbers below 31; 2^28 keeps the
    /// base-128 decoding inside `UInt32` without overflow checks.
    public static let maximumDERTagNumber: UInt32 = 1 << 28

    /// Largest OBJECT IDENTIFIER arc the parser accepts: every arc fits in `UInt64`.
    public static let maximumObjectIdentifierArcOctets = 9

    /// Matter Core §6.5.2: a serial number is at most 20 octets (as RFC 5280 §4.1.2.2 requires).
    public static let maximumSerialNumberLength = 20

    /// Most attributes a Matter TLV name may hold: operational certificates use at most 5
    /// (identifiers plus up to 3 CATs); 10 leaves room for names converted from X.509.
    public static let maximumDistinguishedNameAttributes = 10

    /// Matter Core §6.5.10: a P-256 uncompressed public key (0x04 ‖ X ‖ Y).
    public static let publicKeyLength = 65

    /// Matter Core §6.5.11: the raw ECDSA P-256 signature r ‖ s.
    public static let signatureLength = 64

    /// RFC 7093 §2 method 1 and Matter Core §6.5.11.4: key identifiers are 160 bits.
    public static let keyIdentifierLength = 20

    /// Matter Core 1.1 §11.17.5.4 and §11.17.5.6: attestation and CSR nonces are 32 octets.
    public static let attestationNonceLength = 32

    /// Matter Core §6.2.3: the attestation challenge is the 16-octet AttestationChallenge of the session keys.
    public static let attestationChallengeLength = 16

    /// Matter Core 1.1 §11.17.5 RESP_MAX: attestation and NOCSR elements are at most 900 octets.
    public static let maximumElementsLength = 900

    /// RFC 5280 Appendix A ub-common-name: a common name is at most 64 characters, so the §6.2.2.2 fallback
    /// VID/PID encoding is looked for in the first 64 octets only (as connectedhomeip does).
    public static let maximumCommonNameLength = 64

    /// Matter Core §6.3.1: certificate_id is exactly 19 characters (as "ZIG20142ZB330001-24").
    public static let declarationCertificateIDLength = 19

    /// Matter Core §6.3.1: a certification declaration lists at most 100 product IDs.
    public static let maximumDeclaredProductIDs = 100

    /// Matter Core §6.3.1: the authorized_paa_list holds at most 10 PAA key identifiers.
    public static let maximumAuthorizedPAAs = 10

    /// Largest trust store file read: a PAA is under 1 KiB, so 1 MiB holds any bundle while bounding memory.
    public static let maximumTrustStoreFileSize = 1 << 20
}

extension CertificateLimits {
    /// Matter Core §2.5.5.1 Operational Node ID range: what a NOC's node ID must fall in (group and temporary
    /// IDs above it never name a node that proves itself with a certificate).
    public static let operationalNodeIDs: ClosedRange<UInt64> = 0x0000_0000_0000_0001...0xFFFF_FFEF_FFFF_FFFF
}
