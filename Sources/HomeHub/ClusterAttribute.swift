import MatterInteraction
import MatterTLV

/// One attribute of a cluster and the Swift type of its value.
public struct ClusterAttribute<Value: TLVDecodable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    public let clusterID: UInt32
    public let attributeID: UInt32
    /// "BasicInformation.VendorName", for error messages.
    public let name: String

    public init(clusterID: UInt32, attributeID: UInt32, name: String) {
        self.clusterID = clusterID
        self.attributeID = attributeID
        self.name = name
    }

    /// The path of this attribute on one endpoint, or on every endpoint when `endpoint` is nil.
    public func path(endpoint: UInt16?) -> AttributePathIB {
        AttributePathIB(endpoint: endpoint, cluster: clusterID, attribute: attributeID)
    }

    public var description: String { name }
}

extension AttributeCache {
    /// The cached value of `attribute` on `endpoint` decoded as its type; nil when the cache does not hold it.
    public func value<Value>(_ attribute: ClusterAttribute<Value>, endpoint: UInt16) throws(AttributeDecodingError) -> Value? {
        guard let element = value(endpoint: endpoint, cluster: attribute.clusterID, attribute: attribute.attributeID) else {
            return nil
        }
        do {
            return try Value(tlv: element)
        } catch {
            throw AttributeDecodingError(attribute: attribute.name, endpoint: endpoint, error: error)
        }
    }
}

/// An attribute value of another type than its cluster defines.
public struct AttributeDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public let attribute: String
    public let endpoint: UInt16
    public let error: TLVError

    public var description: String { "\(attribute) on endpoint \(endpoint): \(error)" }
}
