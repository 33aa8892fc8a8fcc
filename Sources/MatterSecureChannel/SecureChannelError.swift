import MatterCrypto
import MatterTLV

/// Why session establishment failed, in words a user can act on.
public enum SecureChannelError: Error, Hashable, Sendable, CustomStringConvertible {
    case unexpectedMessage(opcode: UInt8, expected: String)
    case malformedMessage(String, TLVError)
    case malformedStatusReport(length: Int)
    case invalidField(String)
    case wrongPasscode
    case noSharedTrustRoots
    case peerRejected(StatusReport)
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .unexpectedMessage(let opcode, let expected):
            "unexpected secure-channel message 0x\(String(opcode, radix: 16)) while waiting for \(expected)"
        case .malformedMessage(let name, let error):
            "malformed \(name): \(error)"
        case .malformedStatusReport(let length):
            "malformed StatusReport: \(length) bytes, at least 8 needed"
        case .invalidField(let reason):
            reason
        case .wrongPasscode:
            "wrong passcode: the device's PASE confirmation does not match"
        case .noSharedTrustRoots:
            "Sigma1 names no fabric and node this device belongs to"
        case .peerRejected(let report):
            "the peer ended session establishment: \(report)"
        case .crypto(let error):
            "cryptography failed: \(error)"
        }
    }
}
