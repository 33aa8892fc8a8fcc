// Matter Core §6.5.2 Matter certificate TLV context tags.
enum MatterCertificateTag {
    static let serialNumber: UInt8 = 1
    static let signatureAlgorithm: UInt8 = 2
    static let issuer: UInt8 = 3
    static let notBefore: UInt8 = 4
    static let notAfter: UInt8 = 5
    static let subject: UInt8 = 6
    static let publicKeyAlgorithm: UInt8 = 7
    static let ellipticCurve: UInt8 = 8
    static let publicKey: UInt8 = 9
    static let extensions: UInt8 = 10
    static let signature: UInt8 = 11

    // Matter Core §6.5.5 and §6.5.8: the only algorithm, key type and curve Matter defines.
    static let ecdsaWithSHA256: UInt64 = 1
    static let ecPublicKey: UInt64 = 1
    static let prime256v1: UInt64 = 1
}

// Matter Core §6.5.11 extension tags, and §6.5.11.1 basic-constraints member tags.
enum MatterExtensionTag {
    static let basicConstraints: UInt8 = 1
    static let keyUsage: UInt8 = 2
    static let extendedKeyUsage: UInt8 = 3
    static let subjectKeyIdentifier: UInt8 = 4
    static let authorityKeyIdentifier: UInt8 = 5
    static let futureExtension: UInt8 = 6

    static let isCertificateAuthority: UInt8 = 1
    static let pathLengthConstraint: UInt8 = 2
}

// Matter Core §6.5.6.1 DN attribute tags: 1–16 X.520 strings, 17–22 Matter identifiers.
enum MatterNameTag {
    /// Added to a string attribute's tag when its X.509 form is a PrintableString.
    static let printableStringFlag: UInt8 = 0x80

    static let stringAttributes: [(tag: UInt8, type: ASN1ObjectIdentifier)] = [
        (1, .commonName), (2, .surname), (3, .serialNumber), (4, .countryName), (5, .localityName),
        (6, .stateOrProvinceName), (7, .organizationName), (8, .organizationalUnitName), (9, .title),
        (10, .name), (11, .givenName), (12, .initials), (13, .generationQualifier), (14, .dnQualifier),
        (15, .pseudonym), (16, .domainComponent),
    ]

    /// Matter identifiers: TLV unsigned integers, X.509 fixed-width uppercase hex.
    static let identifierAttributes: [(tag: UInt8, type: ASN1ObjectIdentifier, hexDigits: Int)] = [
        (17, .matterNodeID, 16), (18, .matterFirmwareSigningID, 16), (19, .matterICACID, 16),
        (20, .matterRCACID, 16), (21, .matterFabricID, 16), (22, .matterCASEAuthenticatedTag, 8),
    ]
}

/// Matter Core §3.5.2: the Matter epoch, 2000-01-01T00:00:00Z, in seconds since the Unix epoch.
let matterEpochInUnixSeconds: Int64 = 946_684_800
