/// An address carried (inside JSON: the hub's local socket) as its text form, and parsed back with the same rules as
/// any address given to the hub.
protocol TextCodableAddress: Codable, CustomStringConvertible {
    init?(_ text: String)
}

extension TextCodableAddress {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let address = Self(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an address: \(text)"))
        }
        self = address
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
