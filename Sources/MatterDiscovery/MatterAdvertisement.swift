/// One DNS-SD service instance a Matter node publishes; two with the same instance name are the same
/// service, so advertising again replaces it.
public enum MatterAdvertisement: Hashable, Sendable {
    case commissionable(CommissionableAdvertisement)
    case operational(OperationalAdvertisement)

    public var serviceInstanceName: DNSName {
        switch self {
        case .commissionable(let advertisement): advertisement.serviceInstanceName
        case .operational(let advertisement): advertisement.serviceInstanceName
        }
    }

    /// RFC 6763 §4 and §7.1: the pieces the responder turns into PTR, SRV and TXT records.
    func service() throws(AdvertisementError) -> AdvertisedService {
        switch self {
        case .commissionable(let advertisement):
            AdvertisedService(
                instance: advertisement.serviceInstanceName, serviceType: MatterServiceName.commissionable,
                subtypes: advertisement.subtypes.map(\.serviceName), port: advertisement.port,
                txt: try advertisement.txtEntries()
            )
        case .operational(let advertisement):
            AdvertisedService(
                instance: advertisement.serviceInstanceName, serviceType: MatterServiceName.operational,
                subtypes: [
                    MatterServiceName.operationalFabricSubtype(
                        compressedFabricID: advertisement.peerID.compressedFabricID)
                ],
                port: advertisement.port, txt: try advertisement.session.txtEntries()
            )
        }
    }
}

/// A service instance as DNS-SD sees it: its names, where it runs and its TXT strings.
struct AdvertisedService: Hashable, Sendable {
    var instance: DNSName
    var serviceType: DNSName
    var subtypes: [DNSName]
    var port: UInt16
    var txt: [TXTEntry]
}
