import MatterTLV

/// A command of a cluster, its fields as the command's TLV structure, and the response it is answered with, so
/// that `client.invoke(ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 1), endpoint: 0)` returns an
/// `ArmFailSafeResponse`.
public protocol ClusterCommand: TLVCodable, Sendable {
    associatedtype Response: ClusterCommandResponse
    static var clusterID: UInt32 { get }
    static var commandID: UInt32 { get }
    /// "GeneralCommissioning.ArmFailSafe", for error messages.
    static var name: String { get }
}

/// The answer to a `ClusterCommand`: a response command with fields, or `DefaultSuccess`.
public protocol ClusterCommandResponse: TLVCodable, Sendable {
    /// The response command's ID; nil when the command is answered with a plain SUCCESS status.
    static var commandID: UInt32? { get }
}

// Matter Core §8.8 Invoke Interaction: a command without a response command is answered with a SUCCESS status.
public struct DefaultSuccess: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = nil

    public init() {}

    public func tlvValue() -> TLVValue { .structure([]) }

    public init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.structure()
    }
}
