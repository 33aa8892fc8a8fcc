/// Builds container members compactly; a nil member (an absent optional field) is left out.
@resultBuilder
public enum TLVMembersBuilder {
    public static func buildExpression(_ member: TLVElement) -> [TLVElement] {
        [member]
    }

    public static func buildExpression(_ member: TLVElement?) -> [TLVElement] {
        member.map { [$0] } ?? []
    }

    public static func buildBlock(_ parts: [TLVElement]...) -> [TLVElement] {
        parts.flatMap { $0 }
    }

    public static func buildOptional(_ part: [TLVElement]?) -> [TLVElement] {
        part ?? []
    }

    public static func buildEither(first part: [TLVElement]) -> [TLVElement] { part }

    public static func buildEither(second part: [TLVElement]) -> [TLVElement] { part }

    public static func buildArray(_ parts: [[TLVElement]]) -> [TLVElement] {
        parts.flatMap { $0 }
    }
}

extension TLVValue {
    /// A structure of the built members, e.g. `.structure { TLVElement.context(1, sessionID) }`.
    public static func structure(@TLVMembersBuilder _ members: () -> [TLVElement]) -> TLVValue {
        .structure(members())
    }
}

extension TLVElement {
    /// A member with a context tag.
    public static func context(_ tag: UInt8, _ value: some TLVEncodable) -> TLVElement {
        TLVElement(tag: .context(tag), value.tlvValue())
    }

    /// A member with a context tag, or nothing when the value is absent.
    public static func context(_ tag: UInt8, _ value: (some TLVEncodable)?) -> TLVElement? {
        value.map { TLVElement(tag: .context(tag), $0.tlvValue()) }
    }
}
