import MatterDataModel
import MatterNode
import MatterTLV
import Testing

@testable import MatterDevice

/// The simulated radio's diagnostics: null while on no network, the joined network's values once Network
/// Commissioning says so, a steady made-up mesh around the device, kept across a restart.
struct NetworkDiagnosticsServerTests {
    private typealias Thread = ThreadNetworkDiagnosticsCluster
    static let extendedPANID: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
    /// Channel 25, PAN ID 0xFACE, the Extended PAN ID, the name "Attic", a mesh-local prefix.
    static let dataset: [UInt8] =
        [0x00, 0x03, 0x00, 0x00, 0x19, 0x01, 0x02, 0xFA, 0xCE, 0x02, 0x08] + extendedPANID
        + [0x03, 0x05] + Array("Attic".utf8) + [0x07, 0x08, 0xFD, 0, 0, 0, 0, 0, 0, 1]

    private static func joined(sleepy: Bool = false) -> ClusterServerHarness<NetworkDiagnosticsServer> {
        var harness = ClusterServerHarness(
            NetworkDiagnosticsServer(radio: .thread(extendedPANIDs: [extendedPANID]), sleepy: sleepy))
        harness.deliver(.network(joined: extendedPANID, credentials: dataset))
        return harness
    }

    @Test func onNoNetworkEveryValueIsNullAndEveryTableEmpty() {
        let harness = ClusterServerHarness(
            NetworkDiagnosticsServer(radio: .thread(extendedPANIDs: [Self.extendedPANID])))
        #expect(harness.read(Thread.Attributes.networkName) == .null)
        #expect(harness.read(Thread.Attributes.extAddress) == .null)
        #expect(harness.read(Thread.Attributes.neighborTable) == .array([]))
        #expect(harness.read(Thread.Attributes.routeTable) == .array([]))
    }

    @Test func aJoinedThreadNetworkIsDescribedFromItsDataset() throws {
        let harness = Self.joined()
        #expect(harness.read(Thread.Attributes.channel) == .unsigned(25))
        #expect(harness.read(Thread.Attributes.panId) == .unsigned(0xFACE))
        #expect(harness.read(Thread.Attributes.extendedPanId) == .unsigned(0x1122_3344_5566_7788))
        #expect(harness.read(Thread.Attributes.networkName) == .utf8("Attic"))
        #expect(harness.read(Thread.Attributes.meshLocalPrefix) == .bytes([64, 0xFD, 0, 0, 0, 0, 0, 0, 1]))
        #expect(
            harness.read(Thread.Attributes.routingRole) == .unsigned(UInt64(Thread.RoutingRoleEnum.router.rawValue)))
        let neighbors = try Self.list(Thread.NeighborTableStruct.self, harness.read(Thread.Attributes.neighborTable))
        let routes = try Self.list(Thread.RouteTableStruct.self, harness.read(Thread.Attributes.routeTable))
        #expect(neighbors.map(\.lqi) == [3, 2])
        #expect(Set(routes.map(\.extAddress)) == Set(neighbors.map(\.extAddress)))
        // Its own address is none of its neighbours'; its RLOC16 is a router's (child ID 0).
        guard case .unsigned(let own)? = harness.read(Thread.Attributes.extAddress),
            case .unsigned(let rloc16)? = harness.read(Thread.Attributes.rloc16)
        else {
            Issue.record("no address")
            return
        }
        #expect(!neighbors.map(\.extAddress).contains(own))
        #expect(rloc16 & 0x1FF == 0)
    }

    @Test func twoDevicesOfOneNetworkShareTheirLeaderAndHaveAddressesOfTheirOwn() throws {
        var first = Self.joined()
        var second = Self.joined()
        second.node = NodeFixture.node(uniqueID: "another-device")
        first.deliver(.network(joined: Self.extendedPANID, credentials: Self.dataset))
        second.deliver(.network(joined: Self.extendedPANID, credentials: Self.dataset))
        let leaders = try [first, second].map {
            try Self.list(Thread.NeighborTableStruct.self, $0.read(Thread.Attributes.neighborTable)).first?.extAddress
        }
        #expect(leaders[0] != nil && leaders[0] == leaders[1])
        #expect(first.read(Thread.Attributes.extAddress) != second.read(Thread.Attributes.extAddress))
    }

    @Test func aSleepyDeviceIsAnEndDeviceWithItsParentAlone() throws {
        let harness = Self.joined(sleepy: true)
        #expect(
            harness.read(Thread.Attributes.routingRole)
                == .unsigned(UInt64(Thread.RoutingRoleEnum.sleepyEndDevice.rawValue)))
        #expect(
            try Self.list(Thread.NeighborTableStruct.self, harness.read(Thread.Attributes.neighborTable)).count == 1)
        #expect(harness.read(Thread.Attributes.routeTable) == .array([]))
    }

    @Test func joiningAndLeavingReportTheChangeAndTheNetworkSurvivesARestart() throws {
        var harness = ClusterServerHarness(
            NetworkDiagnosticsServer(radio: .thread(extendedPANIDs: [Self.extendedPANID])))
        let before = harness.version
        harness.deliver(.network(joined: Self.extendedPANID, credentials: Self.dataset))
        #expect(harness.version != before)
        let stored = try #require(harness.server.persistentState)
        var restarted = ClusterServerHarness(
            NetworkDiagnosticsServer(radio: .thread(extendedPANIDs: [Self.extendedPANID])))
        restarted.server.restore(TLVElement(stored))
        #expect(restarted.read(Thread.Attributes.networkName) == .utf8("Attic"))
        harness.deliver(.network(joined: nil, credentials: nil))
        #expect(harness.read(Thread.Attributes.networkName) == .null)
    }

    private static func list<Element: TLVDecodable>(_: Element.Type, _ value: TLVValue?) throws -> [Element] {
        guard case .array(let items)? = value else { return [] }
        return try items.map { try Element(tlv: $0) }
    }
}
