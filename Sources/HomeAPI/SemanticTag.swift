import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// One semantic tag of an endpoint (Matter Core §9.5.6.5 Descriptor TagList): what tells apart the parts of a device
/// that share a device type (the left and right button, switch 1 to 4). `description` reads "Left", "Number 2",
/// "Row 1", or the label; a namespace this API does not know prints as numbers.
public struct SemanticTag: Sendable, Hashable, CustomStringConvertible {
    /// nil for a standard namespace; the vendor ID for a manufacturer-specific one.
    public let manufacturerCode: UInt16?
    public let namespaceID: UInt8
    public let tag: UInt8
    /// The device's own words for the tag; for Row and Column, the row or column number.
    public let label: String?

    public init(manufacturerCode: UInt16? = nil, namespaceID: UInt8, tag: UInt8, label: String? = nil) {
        self.manufacturerCode = manufacturerCode
        self.namespaceID = namespaceID
        self.tag = tag
        self.label = label
    }

    init(_ stored: EndpointSemanticTag) {
        self.init(
            manufacturerCode: stored.manufacturerCode, namespaceID: stored.namespaceID, tag: stored.tag,
            label: stored.label)
    }

    /// The standard namespace's name ("Position"); nil for one this API does not know or a manufacturer-specific one.
    public var namespaceName: String? {
        guard manufacturerCode == nil else { return nil }
        return StandardNamespace(rawValue: namespaceID)?.name
    }

    /// The tag's name in its standard namespace ("Left", "Two"); nil when either is unknown.
    public var tagName: String? {
        guard manufacturerCode == nil else { return nil }
        return StandardNamespace(rawValue: namespaceID)?.tagName(tag)
    }

    public var description: String {
        guard let namespace = manufacturerCode == nil ? StandardNamespace(rawValue: namespaceID) : nil,
            let name = namespace.tagName(tag)
        else {
            let vendor = manufacturerCode.map { "vendor 0x\(Self.hex($0, digits: 4)) " } ?? ""
            return "\(vendor)namespace 0x\(Self.hex(namespaceID, digits: 2)) tag 0x\(Self.hex(tag, digits: 2))"
                + (label.map { " \"\($0)\"" } ?? "")
        }
        return namespace.describe(tag: tag, named: name, label: label)
    }

    private static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// The standard namespaces this API names (Matter Standard Namespaces: Common Number, chapter 8; Common Position,
/// chapter 9).
enum StandardNamespace: UInt8 {
    case number = 0x07
    case position = 0x08

    var name: String {
        switch self {
        case .number: "Number"
        case .position: "Position"
        }
    }

    func tagName(_ tag: UInt8) -> String? {
        switch self {
        case .number:
            let names = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]
            return Int(tag) < names.count ? names[Int(tag)] : nil
        case .position:
            let names = ["Left", "Right", "Top", "Bottom", "Middle", "Row", "Column"]
            return Int(tag) < names.count ? names[Int(tag)] : nil
        }
    }

    /// "Number 2", "Left", "Row 1" (Row and Column carry their number in the label), with any other label after it.
    func describe(tag: UInt8, named name: String, label: String?) -> String {
        switch (self, tag, label) {
        case (.number, _, let label): "Number \(tag)" + (label.map { " \"\($0)\"" } ?? "")
        case (.position, 5...6, let label?): "\(name) \(label)"
        case (_, _, let label?): "\(name) \"\(label)\""
        case (_, _, nil): name
        }
    }
}
