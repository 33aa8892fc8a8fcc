import MatterTLV

// Matter Application Cluster spec §11.10 General Commissioning (0x0030); tags as in controller-clusters.matter.
public enum GeneralCommissioning {
    public static let clusterID: UInt32 = 0x0030

    public static let breadcrumb = ClusterAttribute<UInt64>(clusterID: clusterID, attributeID: 0, name: "GeneralCommissioning.Breadcrumb")
    public static let basicCommissioningInfo = ClusterAttribute<BasicCommissioningInfo>(
        clusterID: clusterID, attributeID: 1, name: "GeneralCommissioning.BasicCommissioningInfo")
    public static let regulatoryConfig = ClusterAttribute<RegulatoryLocationType>(
        clusterID: clusterID, attributeID: 2, name: "GeneralCommissioning.RegulatoryConfig")
    public static let locationCapability = ClusterAttribute<RegulatoryLocationType>(
        clusterID: clusterID, attributeID: 3, name: "GeneralCommissioning.LocationCapability")
    public static let supportsConcurrentConnection = ClusterAttribute<Bool>(
        clusterID: clusterID, attributeID: 4, name: "GeneralCommissioning.SupportsConcurrentConnection")
}

// §11.10.4.1 CommissioningErrorEnum
public struct CommissioningErrorCode: ClusterEnum {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let ok = Self(rawValue: 0)
    public static let valueOutsideRange = Self(rawValue: 1)
    public static let invalidAuthentication = Self(rawValue: 2)
    public static let noFailSafe = Self(rawValue: 3)
    public static let busyWithOtherAdmin = Self(rawValue: 4)
    public static let requiredTCNotAccepted = Self(rawValue: 5)
    public static let tcAcknowledgementsNotReceived = Self(rawValue: 6)
    public static let tcMinVersionNotMet = Self(rawValue: 7)

    public static let names: [UInt8: String] = [
        0: "OK", 1: "ValueOutsideRange", 2: "InvalidAuthentication", 3: "NoFailSafe", 4: "BusyWithOtherAdmin",
        5: "RequiredTCNotAccepted", 6: "TCAcknowledgementsNotReceived", 7: "TCMinVersionNotMet",
    ]
}

// §11.10.4.2 RegulatoryLocationTypeEnum
public struct RegulatoryLocationType: ClusterEnum {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let indoor = Self(rawValue: 0)
    public static let outdoor = Self(rawValue: 1)
    public static let indoorOutdoor = Self(rawValue: 2)

    public static let names: [UInt8: String] = [0: "Indoor", 1: "Outdoor", 2: "IndoorOutdoor"]
}

// §11.10.5.2 BasicCommissioningInfo
public struct BasicCommissioningInfo: TLVCodable, Hashable, Sendable {
    public var failSafeExpiryLengthSeconds: UInt16
    /// Required since Matter 1.0, yet devices of earlier builds (the chip-tool lighting app) leave it out.
    public var maxCumulativeFailsafeSeconds: UInt16?

    public init(failSafeExpiryLengthSeconds: UInt16, maxCumulativeFailsafeSeconds: UInt16?) {
        self.failSafeExpiryLengthSeconds = failSafeExpiryLengthSeconds
        self.maxCumulativeFailsafeSeconds = maxCumulativeFailsafeSeconds
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, failSafeExpiryLengthSeconds)
            TLVElement.context(1, maxCumulativeFailsafeSeconds)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(failSafeExpiryLengthSeconds: try fields.required(0), maxCumulativeFailsafeSeconds: try fields.optional(1))
    }
}

// §11.10.7.1 ArmFailSafe Command
public struct ArmFailSafe: ClusterCommand, Hashable {
    public typealias Response = ArmFailSafeResponse
    public static let clusterID = GeneralCommissioning.clusterID
    public static let commandID: UInt32 = 0x00
    public static let name = "GeneralCommissioning.ArmFailSafe"

    /// 0 disarms the fail-safe.
    public var expiryLengthSeconds: UInt16
    public var breadcrumb: UInt64

    public init(expiryLengthSeconds: UInt16, breadcrumb: UInt64) {
        self.expiryLengthSeconds = expiryLengthSeconds
        self.breadcrumb = breadcrumb
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, expiryLengthSeconds)
            TLVElement.context(1, breadcrumb)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(expiryLengthSeconds: try fields.required(0), breadcrumb: try fields.required(1))
    }
}

// §11.10.7.2 ArmFailSafeResponse Command
public struct ArmFailSafeResponse: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = 0x01
    public var errorCode: CommissioningErrorCode
    public var debugText: String

    public init(errorCode: CommissioningErrorCode, debugText: String = "") {
        self.errorCode = errorCode
        self.debugText = debugText
    }

    public func tlvValue() -> TLVValue { commissioningResponseValue(errorCode, debugText) }

    public init(tlv element: TLVElement) throws(TLVError) {
        (errorCode, debugText) = try decodeCommissioningResponse(element)
    }
}

// §11.10.7.3 SetRegulatoryConfig Command
public struct SetRegulatoryConfig: ClusterCommand, Hashable {
    public typealias Response = SetRegulatoryConfigResponse
    public static let clusterID = GeneralCommissioning.clusterID
    public static let commandID: UInt32 = 0x02
    public static let name = "GeneralCommissioning.SetRegulatoryConfig"

    public var newRegulatoryConfig: RegulatoryLocationType
    /// ISO 3166-1 alpha-2, or "XX" when unknown.
    public var countryCode: String
    public var breadcrumb: UInt64

    public init(newRegulatoryConfig: RegulatoryLocationType, countryCode: String, breadcrumb: UInt64) {
        self.newRegulatoryConfig = newRegulatoryConfig
        self.countryCode = countryCode
        self.breadcrumb = breadcrumb
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, newRegulatoryConfig)
            TLVElement.context(1, countryCode)
            TLVElement.context(2, breadcrumb)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(newRegulatoryConfig: try fields.required(0), countryCode: try fields.required(1), breadcrumb: try fields.required(2))
    }
}

// §11.10.7.4 SetRegulatoryConfigResponse Command
public struct SetRegulatoryConfigResponse: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = 0x03
    public var errorCode: CommissioningErrorCode
    public var debugText: String

    public init(errorCode: CommissioningErrorCode, debugText: String = "") {
        self.errorCode = errorCode
        self.debugText = debugText
    }

    public func tlvValue() -> TLVValue { commissioningResponseValue(errorCode, debugText) }

    public init(tlv element: TLVElement) throws(TLVError) {
        (errorCode, debugText) = try decodeCommissioningResponse(element)
    }
}

// §11.10.7.5 CommissioningComplete Command (no fields)
public struct CommissioningComplete: ClusterCommand, Hashable {
    public typealias Response = CommissioningCompleteResponse
    public static let clusterID = GeneralCommissioning.clusterID
    public static let commandID: UInt32 = 0x04
    public static let name = "GeneralCommissioning.CommissioningComplete"

    public init() {}

    public func tlvValue() -> TLVValue { .structure([]) }

    public init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.structure()
    }
}

// §11.10.7.6 CommissioningCompleteResponse Command
public struct CommissioningCompleteResponse: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = 0x05
    public var errorCode: CommissioningErrorCode
    public var debugText: String

    public init(errorCode: CommissioningErrorCode, debugText: String = "") {
        self.errorCode = errorCode
        self.debugText = debugText
    }

    public func tlvValue() -> TLVValue { commissioningResponseValue(errorCode, debugText) }

    public init(tlv element: TLVElement) throws(TLVError) {
        (errorCode, debugText) = try decodeCommissioningResponse(element)
    }
}

/// The three General Commissioning responses share their fields: ErrorCode (0) and DebugText (1).
private func commissioningResponseValue(_ errorCode: CommissioningErrorCode, _ debugText: String) -> TLVValue {
    .structure {
        TLVElement.context(0, errorCode)
        TLVElement.context(1, debugText)
    }
}

private func decodeCommissioningResponse(_ element: TLVElement) throws(TLVError) -> (CommissioningErrorCode, String) {
    let fields = try element.structure()
    return (try fields.required(0), try fields.required(1))
}
