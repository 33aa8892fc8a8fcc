/// What a discovery looks for.
public enum DiscoveryTarget: Hashable, Sendable {
    /// Commissionable nodes (`_matterc._udp`) that pass the filter.
    case commissionable(CommissionableFilter)
    /// The one operational node (`_matter._tcp`) with this peer ID.
    case operational(OperationalPeerID)
    /// Thread Border Routers (`_meshcop._udp`, Thread 1.3 §8.4.4.1): every one that answers within the window.
    case threadBorderRouters
}

/// Which commissionable nodes a browse keeps. A node matches on its TXT `D=` value, so devices that
/// leave out a subtype (CircuitMatter advertises no `_S<d>`) are still found through the plain browse.
public enum CommissionableFilter: Hashable, Sendable {
    case all
    case longDiscriminator(UInt16)
    case shortDiscriminator(UInt8)

    /// The subtype a compliant device advertises for this filter, browsed alongside the whole service.
    var subtype: CommissionableSubtype? {
        switch self {
        case .all: nil
        case .longDiscriminator(let value): .longDiscriminator(value)
        case .shortDiscriminator(let value): .shortDiscriminator(value)
        }
    }

    func matches(longDiscriminator: UInt16) -> Bool {
        switch self {
        case .all: true
        case .longDiscriminator(let value): longDiscriminator == value
        case .shortDiscriminator(let value): longDiscriminator >> 8 == UInt16(value)
        }
    }
}
