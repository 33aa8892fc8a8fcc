/// Why the responder refused an advertisement or a host: each message names the value and its limit.
public enum AdvertisementError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidInstanceName(String)
    case discriminatorOutOfRange(UInt16)
    case valueTooLong(key: String, length: Int, maximum: Int)
    case intervalOutOfRange(key: String, Duration, maximumMilliseconds: Int64)
    case hostWithoutAddresses(DNSName)
    /// A name, label or TXT string that DNS cannot carry.
    case unencodable(DNSMessageError)

    public var description: String {
        switch self {
        case .invalidInstanceName(let name):
            "commissionable instance name '\(name)' is not 16 uppercase hex digits"
        case .discriminatorOutOfRange(let value):
            "discriminator \(value) does not fit 12 bits (at most \(DiscoveryLimits.maximumDiscriminator))"
        case .valueTooLong(let key, let length, let maximum):
            "TXT \(key) of \(length) bytes; it holds at most \(maximum)"
        case .intervalOutOfRange(let key, let duration, let maximum):
            "TXT \(key) of \(duration) is outside 0…\(maximum) ms"
        case .hostWithoutAddresses(let name):
            "host \(name) has no address to advertise"
        case .unencodable(let error):
            "cannot be written as DNS: \(error.description)"
        }
    }
}
