// Matter Core §9.5.6.5 Descriptor TagList: one of an endpoint's semantic tags (SemanticTagStruct), as the hub stores it.
public struct EndpointSemanticTag: Sendable, Hashable, Codable {
    public var endpoint: UInt16
    /// nil for a standard namespace; a vendor ID for a manufacturer-specific one.
    public var manufacturerCode: UInt16?
    public var namespaceID: UInt8
    public var tag: UInt8
    public var label: String?

    public init(endpoint: UInt16, manufacturerCode: UInt16? = nil, namespaceID: UInt8, tag: UInt8, label: String? = nil)
    {
        self.endpoint = endpoint
        self.manufacturerCode = manufacturerCode
        self.namespaceID = namespaceID
        self.tag = tag
        self.label = label
    }
}
