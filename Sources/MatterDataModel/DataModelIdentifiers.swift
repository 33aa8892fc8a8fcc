import MatterTLV

// Matter Core §7.18.2 Base Data Types (cluster-id, attrib-id, command-id, event-id, devtype-id): the data model identifiers, each its own type so they cannot be mixed up.

/// A cluster ID; manufacturer-specific clusters carry the vendor ID in the upper 16 bits.
public struct ClusterID: DataModelIdentifier {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

public struct AttributeID: DataModelIdentifier {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

public struct CommandID: DataModelIdentifier {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

public struct EventID: DataModelIdentifier {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

public struct DeviceTypeID: DataModelIdentifier {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// What every identifier shares: a 32-bit value, written as an integer literal, shown in hex, coded as a TLV unsigned integer.
public protocol DataModelIdentifier: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible, TLVCodable, Codable
where RawValue == UInt32 {
    init(rawValue: UInt32)
}

extension DataModelIdentifier {
    public init(integerLiteral value: UInt32) { self.init(rawValue: value) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Four hex digits, or eight when the upper half (a vendor prefix) is set: "0x0006", "0xFFF1FC01".
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        let width = rawValue > 0xFFFF ? 8 : 4
        return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    public func tlvValue() -> TLVValue { rawValue.tlvValue() }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(rawValue: try UInt32(tlv: element))
    }
}

// Matter Core §7.13 Global Elements: the attributes every cluster has.
extension AttributeID {
    public static let generatedCommandList: AttributeID = 0xFFF8
    public static let acceptedCommandList: AttributeID = 0xFFF9
    public static let attributeList: AttributeID = 0xFFFB
    public static let featureMap: AttributeID = 0xFFFC
    public static let clusterRevision: AttributeID = 0xFFFD
}
