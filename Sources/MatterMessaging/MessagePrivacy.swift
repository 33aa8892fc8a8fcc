import MatterCrypto

// Matter Core §4.9.2 privacy nonce, §4.9.3 privacy processing of a message header
/// Hides and reveals the fields of a private message's header (P flag): the counter, the source node ID and the
/// destination, encrypted with AES-CTR under the privacy key (for a group, `GroupKeys.privacyKey` of its operational
/// key), the nonce taken from the session ID and the message's MIC. The message flags, session ID and security flags
/// stay readable: they say how long the hidden part is and which keys to try.
public enum MessagePrivacy {
    /// The MIC bytes the privacy nonce takes (§4.9.2): 11 of them, from the sixth.
    static let micFragment = 5..<16

    /// Reveals the hidden header fields of a private message as it arrived; the message is then read and opened as
    /// any other. A message too short to hold its header and MIC throws.
    public static func reveal(_ datagram: [UInt8], privacyKey: [UInt8]) throws(MessageError) -> [UInt8] {
        try apply(datagram, privacyKey: privacyKey)
    }

    /// Hides the header fields of a sealed message whose header has the P flag.
    public static func conceal(_ datagram: [UInt8], privacyKey: [UInt8]) throws(MessageError) -> [UInt8] {
        try apply(datagram, privacyKey: privacyKey)
    }

    /// AES-CTR is its own inverse: the same keystream hides and reveals.
    private static func apply(_ datagram: [UInt8], privacyKey: [UInt8]) throws(MessageError) -> [UInt8] {
        // Message flags (1), session ID (2) and security flags (1) stay in the clear.
        let hiddenStart = 4
        guard datagram.count >= hiddenStart else {
            throw .truncated(needed: hiddenStart, offset: 0, available: datagram.count)
        }
        let flags = datagram[0]
        var hiddenLength = 4
        if flags & MessageFlagBits.sourceNodeIDPresent != 0 { hiddenLength += 8 }
        switch flags & MessageFlagBits.destinationSizeMask {
        case MessageFlagBits.destinationNodeID: hiddenLength += 8
        case MessageFlagBits.destinationGroupID: hiddenLength += 2
        default: break
        }
        let needed = hiddenStart + hiddenLength + MessagingConstants.micLength
        guard datagram.count >= needed else {
            throw .truncated(needed: needed, offset: 0, available: datagram.count)
        }
        let sessionID = [datagram[2], datagram[1]]  // big-endian, as the nonce takes it
        let mic = datagram.suffix(MessagingConstants.micLength)
        let nonce = sessionID + Array(mic.dropFirst(micFragment.lowerBound))
        let hidden = Array(datagram[hiddenStart..<(hiddenStart + hiddenLength)])
        // AES-CCM's encryption is AES-CTR from counter block 1 (flags 0x01 ‖ nonce ‖ 0x0001): with no additional data
        // and the tag dropped, it is exactly §4.9.3's AES-CTR.
        let flipped: [UInt8]
        do {
            flipped = Array(
                try AESCCM.seal(key: privacyKey, nonce: nonce, plaintext: hidden, additionalData: []).prefix(
                    hiddenLength))
        } catch {
            throw .encryptionFailed(error)
        }
        var result = datagram
        result.replaceSubrange(hiddenStart..<(hiddenStart + hiddenLength), with: flipped)
        return result
    }
}
