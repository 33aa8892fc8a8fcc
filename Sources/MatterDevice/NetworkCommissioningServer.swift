import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

/// The networks a virtual device's simulated radio finds, for a device fresh from its box to be given and join
/// (`NetworkCommissioningServer`): one kind of interface, Wi-Fi or Thread.
public enum SimulatedRadio: Sendable, Hashable {
    /// Wi-Fi networks in range, each with the passphrase that joins it.
    case wifi([WiFiNetwork])
    /// Thread networks in range, by Extended PAN ID.
    case thread(extendedPANIDs: [[UInt8]])

    public struct WiFiNetwork: Sendable, Hashable {
        public var ssid: String
        public var passphrase: String

        public init(ssid: String, passphrase: String) {
            self.ssid = ssid
            self.passphrase = passphrase
        }
    }

    /// `count` bytes that depend only on `seed`: a made-up address that stays the same from scan to scan, and
    /// between the scan and the diagnostics.
    static func stableBytes(_ seed: [UInt8], count: Int) -> [UInt8] {
        var state: UInt64 = 0xCBF2_9CE4_8422_2325
        return (0..<count).map { index in
            for byte in seed + [UInt8(index)] { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// The BSSID the radio finds a Wi-Fi network at.
    static func bssid(ofSSID ssid: [UInt8]) -> [UInt8] { [0x02] + stableBytes(ssid, count: 5) }
    /// The signal the radio hears every network at, in dBm.
    static let wifiRSSI: Int8 = -48
    static let wifiChannel: UInt16 = 6
}

// Matter Core §11.9 Network Commissioning cluster, server, for one Wi-Fi or Thread interface: the commissioner adds
// the network's credentials and has the device join it, under the fail-safe; when the fail-safe ends without
// CommissioningComplete, the networks go back to what they were (§11.9.7: changes are reverted with the fail-safe).
// Joining is the simulated radio's: a network in range with the right credentials joins, others fail as a real
// device says they do (NetworkNotFound, AuthFailure).
public struct NetworkCommissioningServer: ClusterServer {
    private typealias Cluster = NetworkCommissioningCluster
    private typealias Attributes = NetworkCommissioningCluster.Attributes
    private typealias Commands = NetworkCommissioningCluster.Commands
    private typealias Status = NetworkCommissioningCluster.NetworkCommissioningStatusEnum

    /// One network the device was given: its ID (the SSID, or the Thread Extended PAN ID) and credentials.
    struct Network: Hashable, Sendable {
        var id: [UInt8]
        var credentials: [UInt8]
    }

    /// §11.9.6.1 MaxNetworks: one network per interface, as connectedhomeip's Linux and ESP32 platforms keep.
    static let maxNetworks: UInt8 = 1
    /// §11.9.6.3 and §11.9.6.4: what the device states a scan and a join take at most.
    static let scanMaxTimeSeconds: UInt8 = 10
    static let connectMaxTimeSeconds: UInt8 = 20

    public let radio: SimulatedRadio
    private var networks: [Network] = []
    private var connected: [UInt8]?
    private var lastStatus: Status?
    private var lastNetworkID: [UInt8]?
    /// The networks and the joined one when the fail-safe first saw them change: what its expiry restores.
    private var beforeFailSafe: (networks: [Network], connected: [UInt8]?)?

    public init(radio: SimulatedRadio) {
        self.radio = radio
    }

    private var feature: Cluster.Feature {
        switch radio {
        case .wifi: .wiFiNetworkInterface
        case .thread: .threadNetworkInterface
        }
    }

    public var description: ClusterDescription {
        let add: CommandDescription =
            switch radio {
            case .wifi: CommandDescription(Commands.AddOrUpdateWiFiNetwork.self)
            case .thread: CommandDescription(Commands.AddOrUpdateThreadNetwork.self)
            }
        return ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision, featureMap: feature.rawValue,
            attributes: [
                AttributeDescription(Attributes.maxNetworks), AttributeDescription(Attributes.networks),
                AttributeDescription(Attributes.scanMaxTimeSeconds),
                AttributeDescription(Attributes.connectMaxTimeSeconds),
                AttributeDescription(Attributes.interfaceEnabled),
                AttributeDescription(Attributes.lastNetworkingStatus), AttributeDescription(Attributes.lastNetworkID),
                AttributeDescription(Attributes.lastConnectErrorValue),
            ],
            acceptedCommands: [
                CommandDescription(Commands.ScanNetworks.self), add, CommandDescription(Commands.RemoveNetwork.self),
                CommandDescription(Commands.ConnectNetwork.self),
            ],
            generatedCommands: [
                Commands.ScanNetworksResponse.id.rawValue, Commands.NetworkConfigResponse.id.rawValue,
                Commands.ConnectNetworkResponse.id.rawValue,
            ])
    }

    /// The networks the device was given, and whether it joined each.
    public var networkList: [(id: [UInt8], connected: Bool)] {
        networks.map { ($0.id, $0.id == connected) }
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.maxNetworks.id.rawValue: .success(.unsigned(UInt64(Self.maxNetworks)))
        case Attributes.networks.id.rawValue:
            .success(
                .array(
                    networks.map {
                        TLVElement(
                            Cluster.NetworkInfoStruct(networkID: $0.id, connected: $0.id == connected).tlvValue())
                    }))
        case Attributes.scanMaxTimeSeconds.id.rawValue: .success(.unsigned(UInt64(Self.scanMaxTimeSeconds)))
        case Attributes.connectMaxTimeSeconds.id.rawValue: .success(.unsigned(UInt64(Self.connectMaxTimeSeconds)))
        case Attributes.interfaceEnabled.id.rawValue: .success(.bool(true))
        case Attributes.lastNetworkingStatus.id.rawValue:
            .success(lastStatus.map { .unsigned(UInt64($0.rawValue)) } ?? .null)
        case Attributes.lastNetworkID.id.rawValue: .success(lastNetworkID.map { .bytes($0) } ?? .null)
        case Attributes.lastConnectErrorValue.id.rawValue: .success(.null)
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        switch command {
        case Commands.ScanNetworks.id.rawValue:
            guard let scan = Commands.ScanNetworks.decode(fields) else { return .status(.invalidCommand) }
            return scanned(asking: scan, in: &node, request)
        case Commands.AddOrUpdateWiFiNetwork.id.rawValue:
            guard case .wifi = radio else { return .status(.unsupportedCommand) }
            guard let add = Commands.AddOrUpdateWiFiNetwork.decode(fields) else { return .status(.invalidCommand) }
            // §11.9.7.3: an SSID of 1 to 32 octets; no credentials (open) or a passphrase of 8 to 63, or a PSK of 64.
            guard (1...32).contains(add.ssid.count), add.credentials.isEmpty || (8...64).contains(add.credentials.count)
            else { return configured(.outOfRange, "SSID or credentials of the wrong length", in: &node, request) }
            return addOrUpdate(Network(id: add.ssid, credentials: add.credentials), in: &node, request)
        case Commands.AddOrUpdateThreadNetwork.id.rawValue:
            guard case .thread = radio else { return .status(.unsupportedCommand) }
            guard let add = Commands.AddOrUpdateThreadNetwork.decode(fields) else { return .status(.invalidCommand) }
            let extendedPANID: [UInt8]
            do {
                extendedPANID = try ThreadOperationalDataset.extendedPANID(of: add.operationalDataset)
            } catch {
                return configured(.outOfRange, error.description, in: &node, request)
            }
            return addOrUpdate(Network(id: extendedPANID, credentials: add.operationalDataset), in: &node, request)
        case Commands.RemoveNetwork.id.rawValue:
            guard let remove = Commands.RemoveNetwork.decode(fields) else { return .status(.invalidCommand) }
            guard node.failSafe != nil else { return .status(.failsafeRequired) }
            guard networks.contains(where: { $0.id == remove.networkID }) else {
                return configured(.networkIDNotFound, nil, in: &node, request)
            }
            let leaves = connected == remove.networkID
            if leaves { node.effects.append(.leftNetwork) }
            change(in: &node, request) {
                $0.networks.removeAll { $0.id == remove.networkID }
                if $0.connected == remove.networkID { $0.connected = nil }
            }
            if leaves { signalNetwork(in: &node, endpoint: request.endpoint) }
            return configured(.success, nil, in: &node, request)
        case Commands.ConnectNetwork.id.rawValue:
            guard let connect = Commands.ConnectNetwork.decode(fields) else { return .status(.invalidCommand) }
            guard node.failSafe != nil else { return .status(.failsafeRequired) }
            guard let network = networks.first(where: { $0.id == connect.networkID }) else {
                return joined(.networkIDNotFound, connect.networkID, in: &node, request)
            }
            let status = join(network)
            if status == .success {
                change(in: &node, request) { $0.connected = network.id }
                node.effects.append(.joinedNetwork)
                signalNetwork(in: &node, endpoint: request.endpoint)
            }
            return joined(status, network.id, in: &node, request)
        default:
            return .status(.unsupportedCommand)
        }
    }

    /// §11.9.7.1 ScanNetworks: the networks the simulated radio finds (a Wi-Fi scan only the SSID asked for, when one
    /// is), each as a real radio reports it; their signal and addresses are made up, steadily.
    private mutating func scanned(
        asking scan: Commands.ScanNetworks, in node: inout NodeState, _ request: ClusterRequest
    ) -> CommandOutcome {
        var wanted: [UInt8]?
        if case .value(let ssid)? = scan.ssid { wanted = ssid }
        let response: Commands.ScanNetworksResponse
        switch radio {
        case .wifi(let inRange):
            let found = inRange.filter { wanted == nil || Array($0.ssid.utf8) == wanted }
            response = Commands.ScanNetworksResponse(
                networkingStatus: .success,
                wiFiScanResults: found.map { network in
                    let ssid = Array(network.ssid.utf8)
                    return Cluster.WiFiInterfaceScanResultStruct(
                        security: network.passphrase.isEmpty ? .unencrypted : .wpa2Personal, ssid: ssid,
                        bssid: SimulatedRadio.bssid(ofSSID: ssid), channel: SimulatedRadio.wifiChannel, wiFiBand: ._2G4,
                        rssi: SimulatedRadio.wifiRSSI)
                })
        case .thread(let inRange):
            response = Commands.ScanNetworksResponse(
                networkingStatus: .success,
                threadScanResults: inRange.map { extendedPANID in
                    Cluster.ThreadInterfaceScanResultStruct(
                        panId: UInt16(extendedPANID[6]) << 8 | UInt16(extendedPANID[7]),
                        extendedPanId: extendedPANID.reduce(0) { $0 << 8 | UInt64($1) },
                        networkName: "Thread-"
                            + extendedPANID.suffix(2).map {
                                ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true)
                            }
                            .joined(),
                        channel: 15, version: 4, extendedAddress: SimulatedRadio.stableBytes(extendedPANID, count: 8),
                        rssi: -60,
                        lqi: 200)
                })
        }
        record(.success, in: &node, request)
        return response.outcome
    }

    /// Whether the simulated radio finds the network, and the credentials join it.
    private func join(_ network: Network) -> Status {
        switch radio {
        case .wifi(let inRange):
            guard let found = inRange.first(where: { Array($0.ssid.utf8) == network.id }) else {
                return .networkNotFound
            }
            return Array(found.passphrase.utf8) == network.credentials ? .success : .authFailure
        case .thread(let inRange):
            return inRange.contains(network.id) ? .success : .networkNotFound
        }
    }

    private mutating func addOrUpdate(
        _ network: Network, in node: inout NodeState, _ request: ClusterRequest
    ) -> CommandOutcome {
        guard node.failSafe != nil else { return .status(.failsafeRequired) }
        if let index = networks.firstIndex(where: { $0.id == network.id }) {
            change(in: &node, request) { $0.networks[index] = network }
        } else {
            guard networks.count < Self.maxNetworks else {
                return configured(.boundsExceeded, "the device keeps \(Self.maxNetworks) network", in: &node, request)
            }
            change(in: &node, request) { $0.networks.append(network) }
        }
        lastNetworkID = network.id
        return configured(.success, nil, in: &node, request)
    }

    /// Changes the networks, remembering first what the fail-safe's expiry restores.
    private mutating func change(
        in node: inout NodeState, _ request: ClusterRequest, _ body: (inout NetworkCommissioningServer) -> Void
    ) {
        if beforeFailSafe == nil { beforeFailSafe = (networks, connected) }
        body(&self)
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [Attributes.networks.id.rawValue])
        node.effects.append(.persist)
    }

    private mutating func configured(
        _ status: Status, _ debugText: String?, in node: inout NodeState, _ request: ClusterRequest
    ) -> CommandOutcome {
        record(status, in: &node, request)
        return Commands.NetworkConfigResponse(
            networkingStatus: status, debugText: debugText,
            networkIndex: status == .success ? UInt8(networks.firstIndex { $0.id == lastNetworkID } ?? 0) : nil
        ).outcome
    }

    private mutating func joined(
        _ status: Status, _ networkID: [UInt8], in node: inout NodeState, _ request: ClusterRequest
    ) -> CommandOutcome {
        lastNetworkID = networkID
        record(status, in: &node, request)
        node.effects.append(
            .log("[network] \(status == .success ? "joined" : "could not join") \(describe(networkID)): \(status)"))
        return Commands.ConnectNetworkResponse(networkingStatus: status, errorValue: .null).outcome
    }

    private mutating func record(_ status: Status, in node: inout NodeState, _ request: ClusterRequest) {
        lastStatus = status
        node.markChanged(
            endpoint: request.endpoint, cluster: id,
            attributes: [Attributes.lastNetworkingStatus.id.rawValue, Attributes.lastNetworkID.id.rawValue])
    }

    /// Tells the endpoint's diagnostics cluster which network the interface is on now.
    private func signalNetwork(in node: inout NodeState, endpoint: UInt16) {
        let joined = connected.flatMap { id in networks.first { $0.id == id } }
        node.signals.append(
            (endpoint: endpoint, signal: .network(joined: joined?.id, credentials: joined?.credentials)))
    }

    private func describe(_ networkID: [UInt8]) -> String {
        switch radio {
        case .wifi: "Wi-Fi \"\(String(decoding: networkID, as: UTF8.self))\""
        case .thread: "Thread \(networkID.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())"
        }
    }

    public mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16) {
        guard case .failSafeEnded(let committed) = signal, let before = beforeFailSafe else { return }
        beforeFailSafe = nil
        guard !committed else { return }
        if before.connected == nil, connected != nil { node.effects.append(.leftNetwork) }
        let wasConnected = connected
        (networks, connected) = before
        if connected != wasConnected { signalNetwork(in: &node, endpoint: endpoint) }
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Attributes.networks.id.rawValue])
        node.effects += [.persist, .log("[network] fail-safe expired: the network settings are back as they were")]
    }

    // MARK: Persistence

    /// What survives a restart: the networks as the fail-safe last committed them.
    public var persistentState: TLVValue? {
        let (networks, connected) = beforeFailSafe ?? (networks, connected)
        return .structure([
            TLVElement(
                tag: .context(0),
                .array(
                    networks.map {
                        TLVElement(
                            .structure([
                                TLVElement(tag: .context(0), .bytes($0.id)),
                                TLVElement(tag: .context(1), .bytes($0.credentials)),
                            ]))
                    })),
            TLVElement(tag: .context(1), connected.map { .bytes($0) } ?? .null),
        ])
    }

    public mutating func restore(_ state: TLVElement) {
        if case .array(let items)? = state[context: 0]?.value {
            networks = items.compactMap { item in
                guard case .bytes(let id)? = item[context: 0]?.value,
                    case .bytes(let credentials)? = item[context: 1]?.value
                else { return nil }
                return Network(id: id, credentials: credentials)
            }
        }
        if case .bytes(let id)? = state[context: 1]?.value { connected = id }
    }
}
