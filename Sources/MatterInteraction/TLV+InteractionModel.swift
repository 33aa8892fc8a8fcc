import MatterTLV

// Matter Core §A.5.3 Lists: the Interaction Model's paths are TLV lists of context-tagged members.
extension TLVValue {
    /// A list of the built members, e.g. `.list { TLVElement.context(2, endpoint) }`.
    static func list(@TLVMembersBuilder _ members: () -> [TLVElement]) -> TLVValue {
        .list(members())
    }
}

extension TLVElement {
    /// This list's members, looked up by context tag; throws when the element is not a list.
    func listFields() throws(TLVError) -> TLVStructure {
        guard case .list(let members) = value else {
            throw .typeMismatch(expected: .list, found: value.kind)
        }
        return TLVStructure(members: members)
    }

    /// A member carrying arbitrary data (attribute values, command fields, event data): the value, retagged.
    static func context(_ tag: UInt8, data: TLVElement) -> TLVElement {
        TLVElement(tag: .context(tag), data.value)
    }

    static func context(_ tag: UInt8, data: TLVElement?) -> TLVElement? {
        data.map { TLVElement(tag: .context(tag), $0.value) }
    }
}

extension TLVStructure {
    /// The member with this context tag as anonymous data, whatever its type; nil when absent.
    func optionalData(_ tag: UInt8) -> TLVElement? {
        members.first { $0.tag == .context(tag) }.map { TLVElement($0.value) }
    }

    /// The member with this context tag as anonymous data, whatever its type.
    func requiredData(_ tag: UInt8) throws(TLVError) -> TLVElement {
        guard let data = optionalData(tag) else { throw .missingField(tag) }
        return data
    }

    /// An optional array member, empty when absent (the Interaction Model leaves empty lists out).
    func array<T: TLVDecodable>(_ tag: UInt8, of type: T.Type = T.self) throws(TLVError) -> [T] {
        try optional(tag, as: [T].self) ?? []
    }
}

extension Array where Element: TLVEncodable {
    /// nil for an empty array, so that `TLVElement.context(tag, array.nonEmpty)` leaves the member out.
    var nonEmpty: [Element]? { isEmpty ? nil : self }
}
