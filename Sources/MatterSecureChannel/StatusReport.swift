// Matter Core Appendix D (Status Report): GeneralCode (16) ‖ ProtocolId (32: vendor << 16 | protocol) ‖
// ProtocolCode (16) ‖ ProtocolData, little-endian.
public struct StatusReport: Hashable, Sendable, CustomStringConvertible {
    public var generalCode: GeneralStatusCode
    /// Vendor ID in the upper 16 bits, protocol ID in the lower 16 bits.
    public var protocolID: UInt32
    public var protocolCode: UInt16
    public var protocolData: [UInt8]

    public init(generalCode: GeneralStatusCode, protocolID: UInt32, protocolCode: UInt16, protocolData: [UInt8] = []) {
        self.generalCode = generalCode
        self.protocolID = protocolID
        self.protocolCode = protocolCode
        self.protocolData = protocolData
    }

    /// A secure-channel status (§4.11.1.4: protocol 0x0000 of the standard vendor).
    public init(generalCode: GeneralStatusCode, secureChannelCode: SecureChannelStatusCode) {
        self.init(generalCode: generalCode, protocolID: 0, protocolCode: secureChannelCode.rawValue)
    }

    public static let sessionEstablishmentSuccess = StatusReport(
        generalCode: .success, secureChannelCode: .sessionEstablishmentSuccess)
    public static let invalidParameter = StatusReport(generalCode: .failure, secureChannelCode: .invalidParameter)

    public var isSecureChannel: Bool { protocolID == 0 }

    public var isSuccess: Bool { generalCode == .success }

    public func encode() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + protocolData.count)
        bytes.append(contentsOf: littleEndianBytes(generalCode.rawValue))
        bytes.append(contentsOf: littleEndianBytes(protocolID))
        bytes.append(contentsOf: littleEndianBytes(protocolCode))
        bytes.append(contentsOf: protocolData)
        return bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(SecureChannelError) -> StatusReport {
        guard bytes.count >= 8 else { throw .malformedStatusReport(length: bytes.count) }
        func read<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
            (0..<MemoryLayout<T>.size).reduce(T.zero) { $0 | T(bytes[offset + $1]) << ($1 * 8) }
        }
        return StatusReport(
            generalCode: GeneralStatusCode(rawValue: read(0, as: UInt16.self)),
            protocolID: read(2, as: UInt32.self),
            protocolCode: read(6, as: UInt16.self),
            protocolData: Array(bytes[8...])
        )
    }

    public var description: String {
        let code =
            isSecureChannel
            ? SecureChannelStatusCode(rawValue: protocolCode).map { "\($0)" } ?? "code \(protocolCode)"
            : "protocol 0x\(String(protocolID, radix: 16)) code \(protocolCode)"
        return "\(generalCode) (\(code))"
    }
}

private func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}

/// Matter Core Appendix D.3.1 General Status Codes; unknown values are kept as they came.
public struct GeneralStatusCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let success = GeneralStatusCode(rawValue: 0)
    public static let failure = GeneralStatusCode(rawValue: 1)
    public static let badPrecondition = GeneralStatusCode(rawValue: 2)
    public static let outOfRange = GeneralStatusCode(rawValue: 3)
    public static let badRequest = GeneralStatusCode(rawValue: 4)
    public static let unsupported = GeneralStatusCode(rawValue: 5)
    public static let unexpected = GeneralStatusCode(rawValue: 6)
    public static let resourceExhausted = GeneralStatusCode(rawValue: 7)
    public static let busy = GeneralStatusCode(rawValue: 8)
    public static let timeout = GeneralStatusCode(rawValue: 9)
    public static let `continue` = GeneralStatusCode(rawValue: 10)
    public static let aborted = GeneralStatusCode(rawValue: 11)
    public static let invalidArgument = GeneralStatusCode(rawValue: 12)
    public static let notFound = GeneralStatusCode(rawValue: 13)
    public static let alreadyExists = GeneralStatusCode(rawValue: 14)
    public static let permissionDenied = GeneralStatusCode(rawValue: 15)
    public static let dataLoss = GeneralStatusCode(rawValue: 16)

    private static let names = [
        "SUCCESS", "FAILURE", "BAD_PRECONDITION", "OUT_OF_RANGE", "BAD_REQUEST", "UNSUPPORTED", "UNEXPECTED",
        "RESOURCE_EXHAUSTED", "BUSY", "TIMEOUT", "CONTINUE", "ABORTED", "INVALID_ARGUMENT", "NOT_FOUND",
        "ALREADY_EXISTS", "PERMISSION_DENIED", "DATA_LOSS",
    ]

    public var description: String {
        Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "general code \(rawValue)"
    }
}

/// Matter Core §4.11.1.4 Secure Channel protocol codes.
public enum SecureChannelStatusCode: UInt16, Sendable, CustomStringConvertible {
    case sessionEstablishmentSuccess = 0x0000
    case noSharedTrustRoots = 0x0001
    case invalidParameter = 0x0002
    case closeSession = 0x0003
    case busy = 0x0004

    public var description: String {
        switch self {
        case .sessionEstablishmentSuccess: "SESSION_ESTABLISHMENT_SUCCESS"
        case .noSharedTrustRoots: "NO_SHARED_TRUST_ROOTS"
        case .invalidParameter: "INVALID_PARAMETER"
        case .closeSession: "CLOSE_SESSION"
        case .busy: "BUSY"
        }
    }
}
