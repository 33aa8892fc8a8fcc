import MatterCrypto

// Matter Core §4.8 Message Security (AES-128-CCM over protocol header ‖ payload, message header as AAD)
extension Message {
    /// Encodes and encrypts a message of a secured session: header ‖ ciphertext ‖ 16-byte MIC.
    /// `nonceSourceNodeID` is the sender's node ID as `MessageNonce` describes it.
    public func encrypted(key: [UInt8], nonceSourceNodeID: UInt64) throws(MessageError) -> [UInt8] {
        guard header.isSecured else { throw .unsecuredSessionHasNoEncryption }
        let headerBytes = try header.encode()
        let plaintext = try protocolHeader.encode() + payload
        let nonce = MessageNonce(header: header, sourceNodeID: nonceSourceNodeID)
        do {
            let sealed = try AESCCM.seal(
                key: key, nonce: nonce.bytes, plaintext: plaintext, additionalData: headerBytes)
            return headerBytes + sealed
        } catch {
            throw .encryptionFailed(error)
        }
    }

    /// Authenticates and decrypts a message of a secured session. The received header bytes, exactly as
    /// they arrived, are the additional data; a mismatch anywhere throws `authenticationFailed`.
    public static func decrypt(
        _ bytes: [UInt8], key: [UInt8], nonceSourceNodeID: UInt64
    ) throws(MessageError) -> Message {
        var reader = ByteReader(bytes)
        let header = try MessageHeader.decode(from: &reader)
        guard header.isSecured else { throw .unsecuredSessionHasNoEncryption }
        let headerLength = reader.offset
        guard reader.remainingCount >= MessagingConstants.micLength else {
            throw .truncated(
                needed: MessagingConstants.micLength, offset: headerLength, available: reader.remainingCount)
        }
        let nonce = MessageNonce(header: header, sourceNodeID: nonceSourceNodeID)
        let plaintext: [UInt8]
        do {
            plaintext = try AESCCM.open(
                key: key,
                nonce: nonce.bytes,
                ciphertextAndTag: reader.readRemaining(),
                additionalData: Array(bytes[..<headerLength])
            )
        } catch .authenticationFailure {
            throw .authenticationFailed
        } catch {
            throw .encryptionFailed(error)
        }
        var plaintextReader = ByteReader(plaintext)
        let protocolHeader = try ProtocolHeader.decode(from: &plaintextReader)
        return Message(header: header, protocolHeader: protocolHeader, payload: plaintextReader.readRemaining())
    }
}
