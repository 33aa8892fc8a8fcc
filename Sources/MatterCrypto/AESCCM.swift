import COpenSSL

/// Matter Core §3.6: AES-128-CCM with a 13-byte nonce and a 16-byte MIC.
public enum AESCCM {
    public static let keyLength = CryptoConstants.aesKeyLength
    public static let nonceLength = CryptoConstants.aesNonceLength
    public static let tagLength = CryptoConstants.aesTagLength

    /// Encrypts and authenticates; returns ciphertext ‖ tag.
    public static func seal(
        key: [UInt8], nonce: [UInt8], plaintext: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try checkParameters(
            key: key, nonce: nonce, payloadLength: plaintext.count, additionalDataLength: additionalData.count)
        let context = try CipherContext()
        try context.start(encrypting: true, key: key, nonce: nonce, tag: nil)
        try context.declare(payloadLength: plaintext.count, additionalData: additionalData)
        var ciphertext = try context.process(plaintext, encrypting: true)
        var tag = [UInt8](repeating: 0, count: tagLength)
        try requireSuccess(
            EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_AEAD_GET_TAG, Int32(tagLength), &tag),
            "reading the CCM tag")
        ciphertext.append(contentsOf: tag)
        return ciphertext
    }

    /// Verifies the tag and decrypts; throws `.authenticationFailure` if anything was altered.
    public static func open(
        key: [UInt8], nonce: [UInt8], ciphertextAndTag: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard ciphertextAndTag.count >= tagLength else {
            throw .invalidLength(
                "ciphertext and tag of \(ciphertextAndTag.count) bytes is shorter than the \(tagLength)-byte tag")
        }
        let ciphertext = Array(ciphertextAndTag.dropLast(tagLength))
        let tag = Array(ciphertextAndTag.suffix(tagLength))
        try checkParameters(
            key: key, nonce: nonce, payloadLength: ciphertext.count, additionalDataLength: additionalData.count)
        let context = try CipherContext()
        try context.start(encrypting: false, key: key, nonce: nonce, tag: tag)
        try context.declare(payloadLength: ciphertext.count, additionalData: additionalData)
        do {
            return try context.process(ciphertext, encrypting: false)
        } catch {
            // CCM decryption fails only when the computed MIC differs from the received one.
            ERR_clear_error()
            throw .authenticationFailure
        }
    }

    private static func checkParameters(
        key: [UInt8], nonce: [UInt8], payloadLength: Int, additionalDataLength: Int
    ) throws(CryptoError) {
        guard key.count == keyLength else {
            throw .invalidLength("AES-CCM key is \(key.count) bytes, expected \(keyLength)")
        }
        guard nonce.count == nonceLength else {
            throw .invalidLength("AES-CCM nonce is \(nonce.count) bytes, expected \(nonceLength)")
        }
        guard payloadLength <= CryptoConstants.aesMaximumPlaintextLength else {
            throw .invalidLength(
                "AES-CCM payload of \(payloadLength) bytes exceeds \(CryptoConstants.aesMaximumPlaintextLength)")
        }
        guard additionalDataLength <= CryptoConstants.openSSLMaximumLength else {
            throw .invalidLength("additional data of \(additionalDataLength) bytes is too long")
        }
    }
}

/// Fetched once and shared: OpenSSL 3 would otherwise look the algorithm up again on every message.
/// A fetched EVP_CIPHER is immutable and safe to use from any thread.
nonisolated(unsafe) private let fetchedAES128CCM = EVP_CIPHER_fetch(nil, "AES-128-CCM", nil)

/// Owns one EVP_CIPHER_CTX for a single CCM operation (CCM needs lengths before data, in this order).
private final class CipherContext {
    let pointer: OpaquePointer

    init() throws(CryptoError) {
        guard let pointer = EVP_CIPHER_CTX_new() else { throw openSSLError("EVP_CIPHER_CTX_new") }
        self.pointer = pointer
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }

    func start(encrypting: Bool, key: [UInt8], nonce: [UInt8], tag: [UInt8]?) throws(CryptoError) {
        let direction: Int32 = encrypting ? 1 : 0
        guard let cipher = fetchedAES128CCM else { throw openSSLError("EVP_CIPHER_fetch(AES-128-CCM)") }
        try requireSuccess(EVP_CipherInit_ex(pointer, cipher, nil, nil, nil, direction), "selecting AES-128-CCM")
        try requireSuccess(
            EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_AEAD_SET_IVLEN, Int32(AESCCM.nonceLength), nil),
            "setting the CCM nonce length")
        // Encryption sets only the tag length; decryption also supplies the received tag.
        if var tag {
            try requireSuccess(
                EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_AEAD_SET_TAG, Int32(tag.count), &tag), "setting the CCM tag")
        } else {
            try requireSuccess(
                EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_AEAD_SET_TAG, Int32(AESCCM.tagLength), nil),
                "setting the CCM tag length")
        }
        try requireSuccess(
            EVP_CipherInit_ex(pointer, nil, nil, key, nonce, direction), "setting the AES-CCM key and nonce")
    }

    func declare(payloadLength: Int, additionalData: [UInt8]) throws(CryptoError) {
        var outputLength: Int32 = 0
        try requireSuccess(
            EVP_CipherUpdate(pointer, nil, &outputLength, nil, Int32(payloadLength)), "declaring the CCM payload length"
        )
        guard !additionalData.isEmpty else { return }
        try requireSuccess(
            EVP_CipherUpdate(pointer, nil, &outputLength, additionalData, Int32(additionalData.count)),
            "adding CCM additional data")
    }

    func process(_ input: [UInt8], encrypting: Bool) throws(CryptoError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count + 1)
        var outputLength: Int32 = 0
        let pointer = self.pointer
        let result = try input.withNonNullBytes { (inputBytes) throws(CryptoError) -> Int32 in
            EVP_CipherUpdate(pointer, &output, &outputLength, inputBytes, Int32(input.count))
        }
        try requireSuccess(result, encrypting ? "encrypting with AES-CCM" : "decrypting with AES-CCM")
        if encrypting {
            var finalLength: Int32 = 0
            try requireSuccess(EVP_CipherFinal_ex(pointer, &output, &finalLength), "finishing AES-CCM")
        }
        output.removeLast()
        return output
    }
}
