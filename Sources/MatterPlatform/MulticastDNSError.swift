import MatterDiscovery

/// Why a discovery or an advertisement on the wire failed.
public enum MulticastDNSError: Error, Hashable, Sendable, CustomStringConvertible {
    case noInterfaces
    case socket(SocketError)
    case notFound(OperationalPeerID, timeout: Duration)
    case cancelled
    case advertisement(AdvertisementError)
    case shutDown

    public var description: String {
        switch self {
        case .noInterfaces: "no network interface given: name the interfaces to query on"
        case .socket(let error): error.description
        case .notFound(let peer, let timeout): "operational node \(peer) did not answer within \(timeout)"
        case .cancelled: "discovery cancelled"
        case .advertisement(let error): "advertisement refused: \(error.description)"
        case .shutDown: "the responder has shut down"
        }
    }
}
