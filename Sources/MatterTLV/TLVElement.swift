// Matter Core Appendix A TLV: one element, a tag and a value (containers hold their members).
public struct TLVElement: Hashable, Sendable {
    public var tag: TLVTag
    public var value: TLVValue

    public init(tag: TLVTag = .anonymous, _ value: TLVValue) {
        self.tag = tag
        self.value = value
    }

    /// The first member of a structure or list with this context tag; nil for other values.
    public subscript(context tag: UInt8) -> TLVElement? {
        switch value {
        case .structure(let members), .list(let members):
            members.first { $0.tag == .context(tag) }
        default:
            nil
        }
    }
}
