// Matter Core §A.5.1 Structures: typed access to the members of a decoded structure.
public struct TLVStructure: Hashable, Sendable {
    public var members: [TLVElement]

    public init(members: [TLVElement]) {
        self.members = members
    }

    /// The member with this context tag decoded as `T`; throws "missing field N" when absent.
    public func required<T: TLVDecodable>(_ tag: UInt8, as type: T.Type = T.self) throws(TLVError) -> T {
        guard let member = member(tag) else {
            throw .missingField(tag)
        }
        return try decode(member, tag)
    }

    /// The member with this context tag decoded as `T`, or nil when the structure lacks it.
    public func optional<T: TLVDecodable>(_ tag: UInt8, as type: T.Type = T.self) throws(TLVError) -> T? {
        guard let member = member(tag) else {
            return nil
        }
        return try decode(member, tag) as T
    }

    private func member(_ tag: UInt8) -> TLVElement? {
        members.first { $0.tag == .context(tag) }
    }

    private func decode<T: TLVDecodable>(_ member: TLVElement, _ tag: UInt8) throws(TLVError) -> T {
        do {
            return try T(tlv: member)
        } catch {
            throw .inField(tag, error)
        }
    }
}

extension TLVElement {
    /// This element's members as a structure; throws when the element is not a structure.
    public func structure() throws(TLVError) -> TLVStructure {
        guard case .structure(let members) = value else {
            throw .typeMismatch(expected: .structure, found: value.kind)
        }
        return TLVStructure(members: members)
    }
}
