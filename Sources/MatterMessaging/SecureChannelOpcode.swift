// Matter Core §4.10.1 Secure Channel Protocol Messages (Table "Secure Channel Protocol Opcodes")
/// The opcodes of `ProtocolID.secureChannel`.
public enum SecureChannelOpcode: UInt8, Sendable, Hashable, CaseIterable {
    case messageCounterSyncRequest = 0x00
    case messageCounterSyncResponse = 0x01
    case standaloneAcknowledgement = 0x10
    case pbkdfParamRequest = 0x20
    case pbkdfParamResponse = 0x21
    case pasePake1 = 0x22
    case pasePake2 = 0x23
    case pasePake3 = 0x24
    case caseSigma1 = 0x30
    case caseSigma2 = 0x31
    case caseSigma3 = 0x32
    case caseSigma2Resume = 0x33
    case statusReport = 0x40
    case icdCheckIn = 0x50
}
