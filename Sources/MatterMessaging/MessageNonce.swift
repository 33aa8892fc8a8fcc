// Matter Core §4.8.1.1 Security Flags, Message Counter and Source Node ID nonce
/// The 13-byte AES-CCM nonce of a secured message: security flags ‖ message counter (LE) ‖ source node ID (LE).
public struct MessageNonce: Sendable, Hashable {
    public let bytes: [UInt8]

    /// `sourceNodeID` is the sender's node ID: for a CASE session the sender's operational node ID, for a
    /// PASE session `MessagingConstants.undefinedNodeID`, for a group message the header's source node ID.
    public init(securityFlags: UInt8, messageCounter: UInt32, sourceNodeID: UInt64) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(MessagingConstants.nonceLength)
        bytes.append(securityFlags)
        bytes.appendLittleEndian(messageCounter)
        bytes.appendLittleEndian(sourceNodeID)
        self.bytes = bytes
    }

    public init(header: MessageHeader, sourceNodeID: UInt64) {
        self.init(
            securityFlags: header.securityFlags, messageCounter: header.messageCounter, sourceNodeID: sourceNodeID)
    }
}
