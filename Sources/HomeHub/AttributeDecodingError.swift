import HomeRecords
import MatterTLV

/// An attribute value of another type than its cluster defines.
public struct AttributeDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// "BasicInformation.VendorName"
    public let attribute: String
    public let endpoint: UInt16
    public let error: TLVError

    public var description: String { "\(attribute) on endpoint \(endpoint): \(error)" }
}
