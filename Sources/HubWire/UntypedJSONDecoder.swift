/// Decodes a `Decodable` type straight from an `UntypedJSON` value, without writing it out as text again. Integers
/// must fit the type asked for exactly; a failure is a `DecodingError` whose coding path names the member at fault.
struct UntypedJSONDecoder: Decoder {
    let value: UntypedJSON
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: UntypedJSON].self) }
        return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([UntypedJSON].self) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(value: value, codingPath: codingPath)
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.kind)"))
    }

    static func decode<T: Decodable>(_ type: T.Type, from value: UntypedJSON, at path: [any CodingKey]) throws -> T {
        if T.self == UntypedJSON.self, let same = value as? T { return same }
        return try T(from: UntypedJSONDecoder(value: value, codingPath: path))
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: UntypedJSON]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> UntypedJSON {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try UntypedJSONDecoder.decode(type, from: member(key), at: codingPath + [key])
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let value = members[key.stringValue], value != .null else { return nil }
            return try UntypedJSONDecoder.decode(type, from: value, at: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try UntypedJSONDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try UntypedJSONDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            UntypedJSONDecoder(value: members["super"] ?? .null, codingPath: codingPath + [SuperKey()])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            UntypedJSONDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let items: [UntypedJSON]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [UntypedJSON], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        private var indexKey: IndexKey { IndexKey(index: currentIndex) }

        /// The current element and its path; the index moves on only once `read` has succeeded, as `JSONDecoder`'s
        /// does, so a failed `try?` can be followed by another try at the same element.
        private mutating func next<Result>(
            _ read: (UntypedJSON, [any CodingKey]) throws -> Result
        ) throws -> Result {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    UntypedJSON.self, .init(codingPath: codingPath + [indexKey], debugDescription: "past the end"))
            }
            let result = try read(items[currentIndex], codingPath + [indexKey])
            currentIndex += 1
            return result
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    UntypedJSON.self, .init(codingPath: codingPath + [indexKey], debugDescription: "past the end"))
            }
            guard items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next { value, path in try UntypedJSONDecoder.decode(type, from: value, at: path) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try next { value, path in try UntypedJSONDecoder(value: value, codingPath: path).container(keyedBy: type) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next { value, path in try UntypedJSONDecoder(value: value, codingPath: path).unkeyedContainer() }
        }

        mutating func superDecoder() throws -> any Decoder {
            try next { value, path in UntypedJSONDecoder(value: value, codingPath: path) }
        }
    }

    /// The key `JSONDecoder` gives a keyed container's super decoder.
    private struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    private struct IndexKey: CodingKey {
        let index: Int
        var stringValue: String { "\(index)" }
        var intValue: Int? { index }
        init(index: Int) { self.index = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.index = intValue }
    }

    private struct Single: SingleValueDecodingContainer {
        let value: UntypedJSON
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }

        private func mismatch(_ type: Any.Type) -> DecodingError {
            .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.kind)"))
        }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let bool) = value else { throw mismatch(type) }
            return bool
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let string) = value else { throw mismatch(type) }
            return string
        }

        func decode(_ type: Double.Type) throws -> Double {
            switch value {
            case .unsigned(let number): return Double(number)
            case .signed(let number): return Double(number)
            case .number(let number): return number
            default: throw mismatch(type)
            }
        }

        func decode(_ type: Float.Type) throws -> Float {
            let double = try decode(Double.self)
            guard
                let float = Float(exactly: double)
                    ?? (abs(double) <= Double(Float.greatestFiniteMagnitude) ? Float(double) : nil)
            else { throw mismatch(type) }
            return float
        }

        /// An integer of `type`, when the value is one that fits it exactly.
        private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            let exact: T? =
                switch value {
                case .unsigned(let number): T(exactly: number)
                case .signed(let number): T(exactly: number)
                default: nil
                }
            guard let exact else { throw mismatch(type) }
            return exact
        }

        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try UntypedJSONDecoder.decode(type, from: value, at: codingPath)
        }
    }
}

extension UntypedJSON {
    /// What kind of value this is, for messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .unsigned, .signed, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
