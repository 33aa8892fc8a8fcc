/// A Swift value that has a TLV value (its tag comes from where it is placed).
public protocol TLVEncodable {
    func tlvValue() -> TLVValue

    /// How an array of this type is encoded; a TLV array of anonymous members unless overridden.
    static func tlvValue(ofArray elements: [Self]) -> TLVValue
}

/// A Swift value decoded from a TLV element (its tag is ignored).
public protocol TLVDecodable {
    init(tlv element: TLVElement) throws(TLVError)

    /// How an array of this type is decoded; from a TLV array unless overridden.
    static func decodeArray(tlv element: TLVElement) throws(TLVError) -> [Self]
}

public typealias TLVCodable = TLVEncodable & TLVDecodable

extension TLVEncodable {
    public static func tlvValue(ofArray elements: [Self]) -> TLVValue {
        .array(elements.map { TLVElement($0.tlvValue()) })
    }
}

extension TLVDecodable {
    public static func decodeArray(tlv element: TLVElement) throws(TLVError) -> [Self] {
        guard case .array(let members) = element.value else {
            throw .typeMismatch(expected: .array, found: element.value.kind)
        }
        var decoded: [Self] = []
        decoded.reserveCapacity(members.count)
        for (index, member) in members.enumerated() {
            do {
                decoded.append(try Self(tlv: member))
            } catch {
                throw .inElement(index, error)
            }
        }
        return decoded
    }
}

// [UInt8] is an octet string (UInt8 overrides the array coding); other arrays are TLV arrays.
extension Array: TLVEncodable where Element: TLVEncodable {
    public func tlvValue() -> TLVValue {
        Element.tlvValue(ofArray: self)
    }
}

extension Array: TLVDecodable where Element: TLVDecodable {
    public init(tlv element: TLVElement) throws(TLVError) {
        self = try Element.decodeArray(tlv: element)
    }
}
