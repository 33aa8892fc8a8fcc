import Foundation
import HomeHub
import HomeRecords
import MatterDataModel
import MatterDiscovery
import MatterInteraction

/// matterjs-server's schema-13 network topology (`get_network_topology`; `docs/websocket-api-schema-changelog.md`,
/// `NetworkTopology` in its client's `model.ts`) from what the hub holds: each node's Thread or Wi-Fi Network
/// Diagnostics as its subscription keeps them current, and the border routers last heard over DNS-SD. Thread links
/// come from each node's neighbour table (and its route table where that names a link the neighbours do not), one
/// edge per pair with each observed direction; Wi-Fi stations hang off one access-point node per BSSID; Ethernet
/// nodes stand unlinked. Pure: nodes and border routers in, the graph out.
enum MatterServerTopology {
    /// A node of the home as the topology reads it.
    struct Node {
        let nodeID: UInt64
        let available: Bool
        let cache: AttributeCache
    }

    private typealias Thread = ThreadNetworkDiagnosticsCluster
    private typealias WiFi = WiFiNetworkDiagnosticsCluster

    /// Every node of the home, by node ID.
    static func nodes(of snapshot: HomeModel.Snapshot) -> [Node] {
        snapshot.devices.keys.sorted().map { nodeID in
            Node(
                nodeID: nodeID, available: MatterServerNodes.isAvailable(nodeID, snapshot),
                cache: snapshot.views[nodeID]?.cache ?? AttributeCache())
        }
    }

    /// One direction of a link as observed by its source.
    private struct Direction: Hashable {
        let strength: String
        let lqi: UInt8?
        let rssi: Int8?

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("strength", .string(strength))]
            if let lqi { fields.append(("lqi", .unsigned(UInt64(lqi)))) }
            if let rssi { fields.append(("rssi", .signed(Int64(rssi)))) }
            return .object(fields)
        }
    }

    private struct Pair: Hashable {
        let source: String
        let target: String
    }

    /// The graph: `{collected_at, nodes[], connections[]}`.
    static func build(nodes: [Node], borderRouters: [ThreadBorderRouter], collectedAt: UInt64) -> JSONValue {
        var order: [String] = []
        var fields: [String: [(String, JSONValue)]] = [:]
        func add(_ id: String, _ node: [(String, JSONValue)]) {
            if fields[id] == nil { order.append(id) }
            fields[id] = [("id", .string(id))] + node
        }
        /// A Thread extended address's node: a commissioned node, a border router, or one made for it.
        var threadNodes: [UInt64: String] = [:]
        var directions: [Pair: Direction] = [:]
        var viaRouteTable: [Pair: UInt8] = [:]
        var wifiLinks: [(station: String, ap: String, direction: Direction)] = []

        for router in borderRouters {
            guard let address = router.extendedAddress else { continue }
            let id = "br_" + hex(address)
            var node: [(String, JSONValue)] = [
                ("kind", .string("border_router")), ("network_type", .string("thread")),
                ("ext_address", .string(hex(address))),
            ]
            if let pan = router.extendedPANID { node.append(("ext_pan_id", .string(hex(pan)))) }
            if let name = router.networkName { node.append(("network_name", .string(name))) }
            node.append(("host_name", .string(displayName(router.hostName))))
            if let vendor = router.vendorName { node.append(("vendor_name", .string(vendor))) }
            if let model = router.modelName { node.append(("model_name", .string(model))) }
            add(id, node)
            threadNodes[address] = id
        }

        // Commissioned nodes first, so their neighbours can name them.
        var threadTables: [(id: String, cache: AttributeCache)] = []
        for node in nodes {
            let id = String(node.nodeID)
            let cache = node.cache
            var entry: [(String, JSONValue)] = [
                ("kind", .string("matter")), ("node_id", .unsigned(node.nodeID)),
                ("available", .bool(node.available)), ("is_bridge", .bool(MatterServerNodes.isBridge(cache))),
            ]
            let served = (try? cache.value(DescriptorCluster.Attributes.serverList, endpoint: 0)) ?? []
            if served.contains(Thread.id) {
                entry.insert(("network_type", .string("thread")), at: 1)
                if let role = value(Thread.Attributes.routingRole, cache) {
                    entry.append(("role", .string(roleName(role))))
                }
                if let address = value(Thread.Attributes.extAddress, cache) {
                    entry.append(("ext_address", .string(hex(address))))
                    threadNodes[address] = id
                }
                if let rloc16 = value(Thread.Attributes.rloc16, cache) {
                    entry.append(("rloc16", .unsigned(UInt64(rloc16))))
                }
                if let pan = value(Thread.Attributes.extendedPanId, cache) {
                    entry.append(("ext_pan_id", .string(hex(pan))))
                }
                if let name = value(Thread.Attributes.networkName, cache) {
                    entry.append(("network_name", .string(name)))
                }
                threadTables.append((id, cache))
            } else if served.contains(WiFi.id) {
                entry.insert(("network_type", .string("wifi")), at: 1)
                entry.append(("role", .string("station")))
                let ssid = self.ssid(cache)
                if let ssid { entry.append(("ssid", .string(ssid))) }
                if let bssid = value(WiFi.Attributes.bssid, cache), bssid.count == 6 {
                    let text = bssid.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }
                        .joined(separator: ":")
                    entry.append(("bssid", .string(text)))
                    let ap = "ap_" + text.replacingOccurrences(of: ":", with: "")
                    var access: [(String, JSONValue)] = [
                        ("kind", .string("wifi_ap")), ("network_type", .string("wifi")), ("role", .string("ap")),
                        ("network_name", .string(text)), ("bssid", .string(text)),
                    ]
                    if let ssid { access.append(("ssid", .string(ssid))) }
                    if fields[ap] == nil { add(ap, access) }
                    let rssi = value(WiFi.Attributes.rssi, cache)
                    wifiLinks.append((id, ap, Direction(strength: wifiStrength(rssi), lqi: nil, rssi: rssi)))
                }
            } else {
                let ethernet = served.contains(EthernetNetworkDiagnosticsCluster.id)
                entry.insert(("network_type", .string(ethernet ? "ethernet" : "unknown")), at: 1)
            }
            add(id, entry)
        }

        for (id, cache) in threadTables {
            for neighbor in (try? cache.value(Thread.Attributes.neighborTable, endpoint: 0)) ?? [] {
                let target = threadNode(neighbor.extAddress, rloc16: neighbor.rloc16, &threadNodes, add)
                guard target != id else { continue }
                let rssi = neighbor.averageRssi.optional ?? neighbor.lastRssi.optional
                directions[Pair(source: id, target: target)] = Direction(
                    strength: lqiStrength(neighbor.lqi), lqi: neighbor.lqi, rssi: rssi)
            }
        }
        // A router's route table names the routers it has a link with; where no neighbour entry says so, it does.
        for (id, cache) in threadTables {
            for route in (try? cache.value(Thread.Attributes.routeTable, endpoint: 0)) ?? []
            where route.linkEstablished && route.allocated {
                let target = threadNode(route.extAddress, rloc16: route.rloc16, &threadNodes, add)
                guard target != id else { continue }
                let out = Pair(source: id, target: target), back = Pair(source: target, target: id)
                guard directions[out] == nil, directions[back] == nil else { continue }
                directions[out] = Direction(strength: lqiStrength(route.lqiOut), lqi: route.lqiOut, rssi: nil)
                directions[back] = Direction(strength: lqiStrength(route.lqiIn), lqi: route.lqiIn, rssi: nil)
                viaRouteTable[Pair(source: min(id, target), target: max(id, target))] = route.pathCost
            }
        }

        var connections: [JSONValue] = []
        let pairs = Set(
            directions.keys.map { Pair(source: min($0.source, $0.target), target: max($0.source, $0.target)) })
        for pair in pairs.sorted(by: { ($0.source, $0.target) < ($1.source, $1.target) }) {
            let forward = directions[pair], backward = directions[Pair(source: pair.target, target: pair.source)]
            let observed = [forward, backward].compactMap { $0 }
            // A pair with no live direction is a link observed dead both ways: left out.
            guard let strongest = observed.max(by: { rank($0.strength) < rank($1.strength) }),
                strongest.strength != "none"
            else { continue }
            var connection: [(String, JSONValue)] = [
                ("source", .string(pair.source)), ("target", .string(pair.target)), ("network", .string("thread")),
                ("strength", .string(strongest.strength)),
            ]
            if let forward { connection.append(("source_to_target", forward.json)) }
            if let backward { connection.append(("target_to_source", backward.json)) }
            if let cost = viaRouteTable[pair] {
                connection += [("via_route_table", .bool(true)), ("path_cost", .unsigned(UInt64(cost)))]
            }
            connections.append(.object(connection))
        }
        for link in wifiLinks {
            connections.append(
                .object([
                    ("source", .string(link.station)), ("target", .string(link.ap)), ("network", .string("wifi")),
                    ("strength", .string(link.direction.strength)), ("source_to_target", link.direction.json),
                ]))
        }
        return .object([
            ("collected_at", .unsigned(collectedAt)),
            ("nodes", .array(order.compactMap { fields[$0].map(JSONValue.object) })),
            ("connections", .array(connections)),
        ])
    }

    /// The node of a Thread extended address: known, or a `thread_unknown` one made for it.
    private static func threadNode(
        _ address: UInt64, rloc16: UInt16, _ known: inout [UInt64: String],
        _ add: (String, [(String, JSONValue)]) -> Void
    ) -> String {
        if let id = known[address] { return id }
        let id = "unknown_" + hex(address)
        add(
            id,
            [
                ("kind", .string("thread_unknown")), ("network_type", .string("thread")),
                ("ext_address", .string(hex(address))), ("rloc16", .unsigned(UInt64(rloc16))),
            ])
        known[address] = id
        return id
    }

    private static func value<Value>(
        _ attribute: AttributeDefinition<Nullable<Value>>, _ cache: AttributeCache
    )
        -> Value?
    {
        (try? cache.value(attribute, endpoint: 0))??.optional
    }

    /// The Wi-Fi network the node is joined to, by Network Commissioning (its network ID is the SSID on Wi-Fi).
    private static func ssid(_ cache: AttributeCache) -> String? {
        let networks = (try? cache.value(NetworkCommissioningCluster.Attributes.networks, endpoint: 0)) ?? []
        guard let joined = networks.first(where: \.connected), !joined.networkID.isEmpty else { return nil }
        return String(validating: joined.networkID, as: UTF8.self)
    }

    /// Thread's link quality (0 to 3) as the graph's strength: 0 is a link observed dead.
    private static func lqiStrength(_ lqi: UInt8) -> String {
        switch lqi {
        case 0: "none"
        case 1: "weak"
        case 2: "medium"
        default: "strong"
        }
    }

    /// A Wi-Fi station's RSSI as the graph's strength (unknown without one: not a dead link).
    private static func wifiStrength(_ rssi: Int8?) -> String {
        guard let rssi else { return "unknown" }
        return rssi >= -55 ? "strong" : rssi >= -67 ? "medium" : "weak"
    }

    private static func rank(_ strength: String) -> Int {
        ["none", "unknown", "weak", "medium", "strong"].firstIndex(of: strength) ?? 0
    }

    private static func roleName(_ role: Thread.RoutingRoleEnum) -> String {
        switch role {
        case .leader: "leader"
        case .router: "router"
        case .reed: "reed"
        case .endDevice: "end_device"
        case .sleepyEndDevice: "sleepy_end_device"
        default: "unassigned"
        }
    }

    /// Sixteen uppercase hex digits: an extended address or Extended PAN ID as matterjs-server writes them.
    /// Bytes as uppercase hex digits, two a byte (matterjs-server's form for binary TXT values and addresses).
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A host name as a label: no trailing dot, no `.local` ("Cuisine.local." is "Cuisine").
    private static func displayName(_ host: DNSName) -> String {
        var text = host.description
        if text.hasSuffix(".") { text.removeLast() }
        if text.lowercased().hasSuffix(".local") { text.removeLast(6) }
        return text
    }
}
