import Foundation
import HomeHub
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterTLV
import Testing

@testable import MatterServer

/// Schema 13's network topology from nodes' own diagnostics: Thread links from neighbour tables (both directions kept,
/// the strongest the summary, dead pairs left out), a route table's link where no neighbour entry names it, strangers
/// and border routers by extended address, a Wi-Fi star per BSSID, Ethernet unlinked.
@Suite struct MatterServerTopologyTests {
    typealias Thread = ThreadNetworkDiagnosticsCluster
    typealias WiFi = WiFiNetworkDiagnosticsCluster

    static func cache(serving clusters: [ClusterID], _ values: [(UInt32, UInt32, TLVValue)]) -> AttributeCache {
        var cache = AttributeCache()
        let list: TLVValue = .array(clusters.map { TLVElement(.unsigned(UInt64($0.rawValue))) })
        let reports =
            ([(DescriptorCluster.id.rawValue, DescriptorCluster.Attributes.serverList.id.rawValue, list)] + values)
            .map { cluster, attribute, value in
                AttributeReportIB.data(
                    AttributeDataIB(
                        dataVersion: 1, path: AttributePathIB(endpoint: 0, cluster: cluster, attribute: attribute),
                        data: TLVElement(value)))
            }
        _ = cache.apply(reports)
        return cache
    }

    static func neighbor(_ address: UInt64, lqi: UInt8, rssi: Int8? = nil) -> TLVElement {
        TLVElement(
            Thread.NeighborTableStruct(
                extAddress: address, age: 1, rloc16: UInt16(truncatingIfNeeded: address), linkFrameCounter: 0,
                mleFrameCounter: 0, lqi: lqi, averageRssi: rssi.map(Nullable.value) ?? .null, lastRssi: .null,
                frameErrorRate: 0, messageErrorRate: 0, rxOnWhenIdle: true, fullThreadDevice: true,
                fullNetworkData: true, isChild: false
            ).tlvValue())
    }

    static func threadNode(
        _ nodeID: UInt64, address: UInt64, role: Thread.RoutingRoleEnum, neighbors: [TLVElement],
        routes: [TLVElement] = []
    ) -> MatterServerTopology.Node {
        let attributes = Thread.Attributes.self
        return MatterServerTopology.Node(
            nodeID: nodeID, available: true,
            cache: cache(
                serving: [Thread.id],
                [
                    (Thread.id.rawValue, attributes.extAddress.id.rawValue, .unsigned(address)),
                    (Thread.id.rawValue, attributes.routingRole.id.rawValue, .unsigned(UInt64(role.rawValue))),
                    (Thread.id.rawValue, attributes.networkName.id.rawValue, .utf8("Home Mesh")),
                    (Thread.id.rawValue, attributes.extendedPanId.id.rawValue, .unsigned(0x1111_1111_2222_2222)),
                    (Thread.id.rawValue, attributes.neighborTable.id.rawValue, .array(neighbors)),
                    (Thread.id.rawValue, attributes.routeTable.id.rawValue, .array(routes)),
                ]))
    }

    @Test func aThreadMeshAWiFiStarAndAnEthernetNodeMakeOneGraph() throws {
        let borderRouter = ThreadBorderRouter(
            instanceName: "BR", hostName: "Cuisine.local", port: 49154, ipv4Addresses: [], ipv6Addresses: [],
            txt: [
                TXTEntry(key: "xa", bytes: [0, 0, 0, 0, 0, 0, 0, 0xBB]), TXTEntry(key: "vn", value: "Acme"),
            ])
        let route = TLVElement(
            Thread.RouteTableStruct(
                extAddress: 0xCC, rloc16: 0x0C00, routerId: 3, nextHop: 3, pathCost: 1, lqiIn: 2, lqiOut: 3, age: 1,
                allocated: true, linkEstablished: true
            ).tlvValue())
        let nodes = [
            // Node 1 hears 2 strongly and the border router; 2 hears 1 weakly (asymmetric), and a dead link to a stranger.
            Self.threadNode(
                1, address: 0xAA, role: .router,
                neighbors: [Self.neighbor(0xA2, lqi: 3, rssi: -40), Self.neighbor(0xBB, lqi: 2)], routes: [route]),
            Self.threadNode(
                2, address: 0xA2, role: .sleepyEndDevice,
                neighbors: [
                    Self.neighbor(0xAA, lqi: 1), Self.neighbor(0xDD, lqi: 0),
                ]),
            MatterServerTopology.Node(
                nodeID: 3, available: false,
                cache: Self.cache(
                    serving: [WiFi.id],
                    [
                        (
                            WiFi.id.rawValue, WiFi.Attributes.bssid.id.rawValue,
                            .bytes([0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
                        ),
                        (WiFi.id.rawValue, WiFi.Attributes.rssi.id.rawValue, .signed(-62)),
                    ])),
            MatterServerTopology.Node(
                nodeID: 4, available: true, cache: Self.cache(serving: [EthernetNetworkDiagnosticsCluster.id], [])),
        ]
        let graph = MatterServerTopology.build(nodes: nodes, borderRouters: [borderRouter], collectedAt: 1234)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(graph.rendered.utf8)) as? [String: Any])
        #expect(json["collected_at"] as? Int == 1234)
        let nodesByID = Dictionary(
            uniqueKeysWithValues: (json["nodes"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
        #expect(
            Set(nodesByID.keys) == [
                "br_00000000000000BB", "1", "2", "3", "4", "ap_112233445566", "unknown_00000000000000CC",
                "unknown_00000000000000DD",
            ])
        #expect(nodesByID["br_00000000000000BB"]?["host_name"] as? String == "Cuisine")
        #expect(nodesByID["2"]?["role"] as? String == "sleepy_end_device")
        #expect(nodesByID["1"]?["ext_pan_id"] as? String == "1111111122222222")
        #expect(
            nodesByID["3"]?["available"] as? Bool == false && nodesByID["3"]?["bssid"] as? String == "11:22:33:44:55:66"
        )
        #expect(nodesByID["4"]?["network_type"] as? String == "ethernet")

        let connections = json["connections"] as? [[String: Any]] ?? []
        func link(_ a: String, _ b: String) -> [String: Any]? {
            connections.first { Set([$0["source"] as? String, $0["target"] as? String]) == [a, b] }
        }
        let oneTwo = try #require(link("1", "2"))
        #expect(oneTwo["strength"] as? String == "strong", "the strongest direction summarises")
        #expect((oneTwo["source_to_target"] as? [String: Any])?["lqi"] as? Int == 3)
        #expect((oneTwo["source_to_target"] as? [String: Any])?["rssi"] as? Int == -40)
        #expect((oneTwo["target_to_source"] as? [String: Any])?["strength"] as? String == "weak")
        #expect(link("1", "br_00000000000000BB")?["strength"] as? String == "medium")
        #expect(link("2", "unknown_00000000000000DD") == nil, "a link observed dead both ways is left out")
        let routed = try #require(link("1", "unknown_00000000000000CC"))
        #expect(routed["via_route_table"] as? Bool == true && routed["path_cost"] as? Int == 1)
        let wifi = try #require(link("3", "ap_112233445566"))
        #expect(wifi["network"] as? String == "wifi" && wifi["strength"] as? String == "medium")
        #expect(connections.count == 4, "the Ethernet node stands unlinked")
    }
}
