// TLV coding of the standard Swift types that Matter's base data types map to.

extension Bool: TLVCodable {
    public func tlvValue() -> TLVValue { .bool(self) }

    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .bool(let value) = element.value else {
            throw .typeMismatch(expected: .boolean, found: element.value.kind)
        }
        self = value
    }
}

extension Float: TLVCodable {
    public func tlvValue() -> TLVValue { .float(self) }

    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .float(let value) = element.value else {
            throw .typeMismatch(expected: .float, found: element.value.kind)
        }
        self = value
    }
}

extension Double: TLVCodable {
    public func tlvValue() -> TLVValue { .double(self) }

    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .double(let value) = element.value else {
            throw .typeMismatch(expected: .double, found: element.value.kind)
        }
        self = value
    }
}

extension String: TLVCodable {
    public func tlvValue() -> TLVValue { .utf8(self) }

    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .utf8(let value) = element.value else {
            throw .typeMismatch(expected: .utf8String, found: element.value.kind)
        }
        self = value
    }
}

// Signed and unsigned are distinct TLV types; like connectedhomeip, neither decodes as the other.
extension TLVEncodable where Self: FixedWidthInteger & UnsignedInteger {
    public func tlvValue() -> TLVValue { .unsigned(UInt64(self)) }
}

extension TLVDecodable where Self: FixedWidthInteger & UnsignedInteger {
    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .unsigned(let value) = element.value else {
            throw .typeMismatch(expected: .unsignedInteger, found: element.value.kind)
        }
        guard let exact = Self(exactly: value) else {
            throw .integerOutOfRange(value: String(value), type: String(describing: Self.self))
        }
        self = exact
    }
}

extension TLVEncodable where Self: FixedWidthInteger & SignedInteger {
    public func tlvValue() -> TLVValue { .signed(Int64(self)) }
}

extension TLVDecodable where Self: FixedWidthInteger & SignedInteger {
    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .signed(let value) = element.value else {
            throw .typeMismatch(expected: .signedInteger, found: element.value.kind)
        }
        guard let exact = Self(exactly: value) else {
            throw .integerOutOfRange(value: String(value), type: String(describing: Self.self))
        }
        self = exact
    }
}

extension UInt8: TLVCodable {
    /// An array of bytes is an octet string.
    public static func tlvValue(ofArray elements: [UInt8]) -> TLVValue { .bytes(elements) }

    public static func decodeArray(tlv element: TLVElement) throws(TLVError) -> [UInt8] {
        guard case .bytes(let bytes) = element.value else {
            throw .typeMismatch(expected: .octetString, found: element.value.kind)
        }
        return bytes
    }
}

extension UInt16: TLVCodable {}
extension UInt32: TLVCodable {}
extension UInt64: TLVCodable {}
extension Int8: TLVCodable {}
extension Int16: TLVCodable {}
extension Int32: TLVCodable {}
extension Int64: TLVCodable {}
