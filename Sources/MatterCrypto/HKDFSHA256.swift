import COpenSSL

/// RFC 5869 HKDF with SHA-256 (extract then expand).
public enum HKDFSHA256 {
    public static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputLength: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (1...CryptoConstants.hkdfMaximumOutputLength).contains(outputLength) else {
            throw .invalidLength(
                "HKDF-SHA256 output of \(outputLength) bytes is outside 1...\(CryptoConstants.hkdfMaximumOutputLength)")
        }
        guard !inputKeyMaterial.isEmpty else { throw .invalidKey("HKDF input key material is empty") }
        for (name, field) in [("input key material", inputKeyMaterial), ("salt", salt), ("info", info)]
        where field.count > CryptoConstants.openSSLMaximumLength {
            throw .invalidLength("HKDF \(name) of \(field.count) bytes is too long")
        }
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else {
            throw openSSLError("EVP_PKEY_CTX_new_id(HKDF)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try requireSuccess(EVP_PKEY_derive_init(context), "starting HKDF")
        try requireSuccess(EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()), "selecting SHA-256 for HKDF")
        try salt.withNonNullBytes { (bytes) throws(CryptoError) in
            try requireSuccess(EVP_PKEY_CTX_set1_hkdf_salt(context, bytes, Int32(salt.count)), "setting the HKDF salt")
        }
        try requireSuccess(
            EVP_PKEY_CTX_set1_hkdf_key(context, inputKeyMaterial, Int32(inputKeyMaterial.count)), "setting the HKDF key"
        )
        try info.withNonNullBytes { (bytes) throws(CryptoError) in
            try requireSuccess(EVP_PKEY_CTX_add1_hkdf_info(context, bytes, Int32(info.count)), "setting the HKDF info")
        }
        var output = [UInt8](repeating: 0, count: outputLength)
        var length = outputLength
        try requireSuccess(EVP_PKEY_derive(context, &output, &length), "deriving with HKDF")
        guard length == outputLength else { throw .openSSL("HKDF produced \(length) bytes instead of \(outputLength)") }
        return output
    }
}
