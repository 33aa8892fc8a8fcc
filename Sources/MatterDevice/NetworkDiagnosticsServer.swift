import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Core §11.14 Thread Network Diagnostics and §11.15 Wi-Fi Network Diagnostics clusters, server, for the
// simulated radio's interface (`SimulatedRadio`): what the network the device joined looks like from the device, told
// by its Network Commissioning cluster (`EndpointSignal.network`). On no network, every value is null and every table
// empty, as the spec says of a detached interface.
//
// The neighbours are made up, steadily (they depend only on the network and the device's unique ID): on Thread, the
// network's leader (a border router: every Thread network has one) and one more router; a device that sleeps is a
// sleepy end device, the leader's child, with the leader alone as its neighbour (its parent). So a hub's topology of
// virtual devices has a mesh to draw: devices of one network share their leader.
public struct NetworkDiagnosticsServer: ClusterServer {
    private typealias Thread = ThreadNetworkDiagnosticsCluster
    private typealias WiFi = WiFiNetworkDiagnosticsCluster

    public let radio: SimulatedRadio
    /// An end device that sleeps between polls of its parent (an ICD): never a router.
    public let sleepy: Bool
    /// The network joined and its credentials (a Thread network's operational dataset); nil: none.
    private var joined: (id: [UInt8], credentials: [UInt8])?

    public init(radio: SimulatedRadio, sleepy: Bool = false) {
        self.radio = radio
        self.sleepy = sleepy
    }

    public var description: ClusterDescription {
        switch radio {
        case .wifi:
            ClusterDescription(
                id: WiFi.id.rawValue, revision: WiFi.revision,
                attributes: [
                    AttributeDescription(WiFi.Attributes.bssid), AttributeDescription(WiFi.Attributes.securityType),
                    AttributeDescription(WiFi.Attributes.wiFiVersion),
                    AttributeDescription(WiFi.Attributes.channelNumber), AttributeDescription(WiFi.Attributes.rssi),
                ])
        case .thread:
            ClusterDescription(
                id: Thread.id.rawValue, revision: Thread.revision,
                attributes: [
                    Thread.Attributes.channel.id, Thread.Attributes.routingRole.id, Thread.Attributes.networkName.id,
                    Thread.Attributes.panId.id, Thread.Attributes.extendedPanId.id,
                    Thread.Attributes.meshLocalPrefix.id, Thread.Attributes.neighborTable.id,
                    Thread.Attributes.routeTable.id, Thread.Attributes.partitionId.id, Thread.Attributes.weighting.id,
                    Thread.Attributes.dataVersion.id, Thread.Attributes.stableDataVersion.id,
                    Thread.Attributes.leaderRouterId.id, Thread.Attributes.securityPolicy.id,
                    Thread.Attributes.channelPage0Mask.id, Thread.Attributes.operationalDatasetComponents.id,
                    Thread.Attributes.activeNetworkFaultsList.id, Thread.Attributes.extAddress.id,
                    Thread.Attributes.rloc16.id,
                ].map { AttributeDescription(id: $0.rawValue, readPrivilege: .view) })
        }
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch radio {
        case .wifi: readWiFi(attribute)
        case .thread: readThread(attribute, uniqueID: node.identity.uniqueID)
        }
    }

    public mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16) {
        guard case .network(let network, let credentials) = signal else { return }
        joined = network.map { ($0, credentials ?? []) }
        node.markChanged(endpoint: endpoint, cluster: id, attributes: description.attributes.map(\.id))
        node.effects.append(.persist)
    }

    // MARK: Wi-Fi

    private func readWiFi(_ attribute: UInt32) -> Result<TLVValue, InteractionModelStatus> {
        guard let joined else {
            return description.attributes.contains { $0.id == attribute }
                ? .success(.null) : .failure(.unsupportedAttribute)
        }
        return switch attribute {
        case WiFi.Attributes.bssid.id.rawValue: .success(.bytes(SimulatedRadio.bssid(ofSSID: joined.id)))
        case WiFi.Attributes.securityType.id.rawValue:
            .success(.unsigned(UInt64((joined.credentials.isEmpty ? WiFi.SecurityTypeEnum.none : .wpa2).rawValue)))
        case WiFi.Attributes.wiFiVersion.id.rawValue: .success(.unsigned(UInt64(WiFi.WiFiVersionEnum.n.rawValue)))
        case WiFi.Attributes.channelNumber.id.rawValue: .success(.unsigned(UInt64(SimulatedRadio.wifiChannel)))
        case WiFi.Attributes.rssi.id.rawValue: .success(.signed(Int64(SimulatedRadio.wifiRSSI)))
        default: .failure(.unsupportedAttribute)
        }
    }

    // MARK: Thread

    /// The made-up mesh around the device on the network `extendedPANID`.
    struct Mesh {
        static let leaderRouterID: UInt8 = 0
        static let otherRouterID: UInt8 = 3
        let extendedPANID: [UInt8]
        let ownAddress: UInt64
        let ownRouterID: UInt8

        init(extendedPANID: [UInt8], uniqueID: String) {
            self.extendedPANID = extendedPANID
            ownAddress = Self.address(SimulatedRadio.stableBytes(Array(uniqueID.utf8) + extendedPANID, count: 8))
            // A router ID of its own, never the leader's or the other router's.
            ownRouterID = 8 + UInt8(truncatingIfNeeded: ownAddress) % 54
        }

        var leaderAddress: UInt64 { Self.address(SimulatedRadio.stableBytes(extendedPANID + [0x4C], count: 8)) }
        var otherRouterAddress: UInt64 { Self.address(SimulatedRadio.stableBytes(extendedPANID + [0x52], count: 8)) }

        static func rloc16(router: UInt8, child: UInt16 = 0) -> UInt16 { UInt16(router) << 10 | child }

        private static func address(_ bytes: [UInt8]) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
    }

    private func readThread(_ attribute: UInt32, uniqueID: String) -> Result<TLVValue, InteractionModelStatus> {
        typealias A = Thread.Attributes
        let lists: Set<UInt32> = [
            A.neighborTable.id.rawValue, A.routeTable.id.rawValue, A.activeNetworkFaultsList.id.rawValue,
        ]
        guard description.attributes.contains(where: { $0.id == attribute }) else {
            return .failure(.unsupportedAttribute)
        }
        guard let joined else { return .success(lists.contains(attribute) ? .array([]) : .null) }
        let dataset = joined.credentials
        let mesh = Mesh(extendedPANID: joined.id, uniqueID: uniqueID)
        let ownRLOC =
            sleepy ? Mesh.rloc16(router: Mesh.leaderRouterID, child: 1) : Mesh.rloc16(router: mesh.ownRouterID)
        func nullable<T: TLVEncodable>(_ value: T?) -> TLVValue { value.map { $0.tlvValue() } ?? .null }
        return switch attribute {
        case A.channel.id.rawValue: .success(nullable(ThreadOperationalDataset.channel(of: dataset)))
        case A.routingRole.id.rawValue:
            .success(.unsigned(UInt64((sleepy ? Thread.RoutingRoleEnum.sleepyEndDevice : .router).rawValue)))
        case A.networkName.id.rawValue: .success(nullable(ThreadOperationalDataset.networkName(of: dataset)))
        case A.panId.id.rawValue: .success(nullable(ThreadOperationalDataset.panID(of: dataset)))
        case A.extendedPanId.id.rawValue: .success(.unsigned(joined.id.reduce(0) { $0 << 8 | UInt64($1) }))
        case A.meshLocalPrefix.id.rawValue:
            // §11.14.6.6: the prefix with its length in bits first.
            .success(ThreadOperationalDataset.meshLocalPrefix(of: dataset).map { .bytes([64] + $0) } ?? .null)
        case A.neighborTable.id.rawValue: .success(.array(neighbors(mesh).map { TLVElement($0.tlvValue()) }))
        case A.routeTable.id.rawValue: .success(.array(routes(mesh).map { TLVElement($0.tlvValue()) }))
        case A.partitionId.id.rawValue:
            .success(.unsigned(UInt64(UInt32(truncatingIfNeeded: mesh.leaderAddress))))
        case A.weighting.id.rawValue: .success(.unsigned(64))
        case A.dataVersion.id.rawValue, A.stableDataVersion.id.rawValue: .success(.unsigned(1))
        case A.leaderRouterId.id.rawValue: .success(.unsigned(UInt64(Mesh.leaderRouterID)))
        case A.securityPolicy.id.rawValue:
            .success(Thread.SecurityPolicy(rotationTime: 672, flags: 0x00F7).tlvValue())
        case A.channelPage0Mask.id.rawValue: .success(.bytes([0x07, 0xFF, 0xF8, 0x00]))
        case A.operationalDatasetComponents.id.rawValue: .success(components(dataset).tlvValue())
        case A.activeNetworkFaultsList.id.rawValue: .success(.array([]))
        case A.extAddress.id.rawValue: .success(.unsigned(mesh.ownAddress))
        case A.rloc16.id.rawValue: .success(.unsigned(UInt64(ownRLOC)))
        default: .failure(.unsupportedAttribute)
        }
    }

    /// A router hears the leader well and the other router less well; a sleepy end device has its parent only.
    private func neighbors(_ mesh: Mesh) -> [Thread.NeighborTableStruct] {
        func neighbor(_ address: UInt64, router: UInt8, lqi: UInt8, rssi: Int8) -> Thread.NeighborTableStruct {
            Thread.NeighborTableStruct(
                extAddress: address, age: 12, rloc16: Mesh.rloc16(router: router), linkFrameCounter: 1_024,
                mleFrameCounter: 96, lqi: lqi, averageRssi: .value(rssi), lastRssi: .value(rssi), frameErrorRate: 0,
                messageErrorRate: 0, rxOnWhenIdle: true, fullThreadDevice: true, fullNetworkData: true, isChild: false)
        }
        let leader = neighbor(mesh.leaderAddress, router: Mesh.leaderRouterID, lqi: 3, rssi: -52)
        if sleepy { return [leader] }
        return [leader, neighbor(mesh.otherRouterAddress, router: Mesh.otherRouterID, lqi: 2, rssi: -71)]
    }

    private func routes(_ mesh: Mesh) -> [Thread.RouteTableStruct] {
        if sleepy { return [] }
        func route(_ address: UInt64, router: UInt8, lqi: UInt8) -> Thread.RouteTableStruct {
            Thread.RouteTableStruct(
                extAddress: address, rloc16: Mesh.rloc16(router: router), routerId: router, nextHop: router,
                pathCost: lqi == 3 ? 1 : 2, lqiIn: lqi, lqiOut: lqi, age: 8, allocated: true, linkEstablished: true)
        }
        return [
            route(mesh.leaderAddress, router: Mesh.leaderRouterID, lqi: 3),
            route(mesh.otherRouterAddress, router: Mesh.otherRouterID, lqi: 2),
        ]
    }

    private func components(_ dataset: [UInt8]) -> Thread.OperationalDatasetComponents {
        Thread.OperationalDatasetComponents(
            activeTimestampPresent: true, pendingTimestampPresent: false, masterKeyPresent: true,
            networkNamePresent: ThreadOperationalDataset.networkName(of: dataset) != nil, extendedPanIdPresent: true,
            meshLocalPrefixPresent: ThreadOperationalDataset.meshLocalPrefix(of: dataset) != nil, delayPresent: false,
            panIdPresent: ThreadOperationalDataset.panID(of: dataset) != nil,
            channelPresent: ThreadOperationalDataset.channel(of: dataset) != nil, pskcPresent: true,
            securityPolicyPresent: true, channelMaskPresent: true)
    }

    // MARK: Persistence

    /// The network joined, as Network Commissioning last said (a restart does not say it again).
    public var persistentState: TLVValue? {
        guard let joined else { return .structure([]) }
        return .structure([
            TLVElement(tag: .context(0), .bytes(joined.id)), TLVElement(tag: .context(1), .bytes(joined.credentials)),
        ])
    }

    public mutating func restore(_ state: TLVElement) {
        guard case .bytes(let id)? = state[context: 0]?.value, case .bytes(let credentials)? = state[context: 1]?.value
        else { return }
        joined = (id, credentials)
    }
}
