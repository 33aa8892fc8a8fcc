import MatterCrypto
import MatterTLV

// Matter Core §6.3.2 Certification Declaration envelope, signer side: the shape `init(derEncoded:)` reads.
extension SignedCertificationDeclaration {
    /// RFC 5652 SignedData around the declaration's TLV, signed by `key` and naming it by `keyIdentifier`.
    public static func encode(
        _ declaration: CertificationDeclaration, signedBy key: P256.PrivateKey,
        keyIdentifier: [UInt8]
    ) throws(CertificateError) -> [UInt8] {
        let content = TLVWriter.encode(TLVElement(declaration.tlvValue()))
        let signature = try performingCrypto { () throws(CryptoError) in
            try key.signature(for: content).derRepresentation
        }
        let sha256 = DERNode.sequence([.objectIdentifier(.sha256)])
        let signerInfo = DERNode.sequence([
            .integer(3), .implicit(0, keyIdentifier), sha256, .sequence([.objectIdentifier(.ecdsaWithSHA256)]),
            .octetString(signature),
        ])
        let signedData = DERNode.sequence([
            .integer(3), .set([sha256]),
            .sequence([.objectIdentifier(.cmsData), .explicit(0, .octetString(content))]),
            .set([signerInfo]),
        ])
        return DERWriter.encode(.sequence([.objectIdentifier(.cmsSignedData), .explicit(0, signedData)]))
    }
}
