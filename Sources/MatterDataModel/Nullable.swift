import MatterTLV

// Matter Core §7.7 Qualities, "X" (nullable): a value that may be the TLV null.
/// Generated code uses `Nullable<T>` for nullable and Swift's `Optional` for optional (absent) fields, so a field that is
/// both is `Nullable<T>?`: nil when absent, `.null` when present as null.
public enum Nullable<Wrapped> {
    case null
    case value(Wrapped)

    /// `.null` for nil.
    public init(_ optional: Wrapped?) {
        self = optional.map(Nullable.value) ?? .null
    }

    /// nil for `.null`.
    public var optional: Wrapped? {
        if case .value(let wrapped) = self { wrapped } else { nil }
    }
}

extension Nullable: Equatable where Wrapped: Equatable {}
extension Nullable: Hashable where Wrapped: Hashable {}
extension Nullable: Sendable where Wrapped: Sendable {}

extension Nullable: TLVEncodable where Wrapped: TLVEncodable {
    public func tlvValue() -> TLVValue {
        switch self {
        case .null: .null
        case .value(let wrapped): wrapped.tlvValue()
        }
    }
}

extension Nullable: TLVDecodable where Wrapped: TLVDecodable {
    public init(tlv element: TLVElement) throws(TLVError) {
        self = element.value == .null ? .null : .value(try Wrapped(tlv: element))
    }
}
