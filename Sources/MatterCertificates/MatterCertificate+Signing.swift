import MatterCrypto

// Matter Core §6.5.11 Signature: ECDSA P-256 over the DER tbsCertificate of the certificate's X.509 form.
extension MatterCertificate {
    /// This certificate with its signature made by `key`; the fields are signed exactly as they stand, so the
    /// caller chooses the profile (operational by `CertificateAuthority`, attestation by a device's own chain).
    public func signed(with key: P256.PrivateKey) throws(CertificateError) -> MatterCertificate {
        var certificate = self
        let tbs = DERWriter.encode(try tbsCertificateNode())
        certificate.signature = try performingCrypto { () throws(CryptoError) in
            try key.signature(for: tbs).rawRepresentation
        }
        return certificate
    }
}
