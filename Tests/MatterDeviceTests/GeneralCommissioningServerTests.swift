import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterTLV
import Testing

/// The fail-safe and CommissioningComplete, on the node state alone (no network, a chosen clock).
struct GeneralCommissioningServerTests {
    typealias Commands = GeneralCommissioningCluster.Commands
    static let request = ClusterRequest(endpoint: 0, context: NodeFixture.pase)

    static func errorCode(_ outcome: CommandOutcome) -> UInt8? {
        guard case .response(_, let fields) = outcome, case .unsigned(let code)? = TLVElement(fields)[context: 0]?.value
        else { return nil }
        return UInt8(exactly: code)
    }

    static func arm(
        _ seconds: UInt16, _ server: inout GeneralCommissioningServer, _ node: inout NodeState,
        request: ClusterRequest = request
    ) -> UInt8? {
        errorCode(
            server.invoke(
                Commands.ArmFailSafe.id.rawValue,
                fields: TLVElement(Commands.ArmFailSafe(expiryLengthSeconds: seconds, breadcrumb: 7).tlvValue()),
                in: &node, request: request))
    }

    @Test func expiryRestoresTheFabricTableAndClosesTheSessionsOfAddedFabrics() throws {
        var server = GeneralCommissioningServer()
        var node = NodeFixture.node(fabrics: [try NodeFixture.fabric(index: 1, admin: 0xA)])
        node.now = NodeFixture.at(seconds: 100)
        #expect(Self.arm(60, &server, &node) == 0)
        #expect(node.failSafe?.deadline == NodeFixture.at(seconds: 160))
        #expect(node.breadcrumb == 7)
        node.fabrics.append(try NodeFixture.fabric(index: 2, fabricID: 0xB, admin: 0xB))
        node.effects = []
        node.expireFailSafe()
        #expect(node.fabrics.map(\.index) == [1])
        #expect(node.failSafe == nil)
        #expect(node.breadcrumb == 0)
        #expect(node.effects.contains(.closeSessions(fabricIndex: 2)))
        #expect(!node.effects.contains(.closeSessions(fabricIndex: 1)))
    }

    @Test func armingZeroExpiresAtOnceAndReArmingStopsAtTheCumulativeLimit() throws {
        var server = GeneralCommissioningServer()
        var node = NodeFixture.node()
        #expect(Self.arm(60, &server, &node) == 0)
        node.fabrics.append(try NodeFixture.fabric(index: 1, admin: 0xA))
        #expect(Self.arm(0, &server, &node) == 0)
        #expect(node.fabrics.isEmpty && node.failSafe == nil)

        #expect(Self.arm(600, &server, &node) == 0)
        node.now = NodeFixture.at(seconds: 500)
        #expect(Self.arm(600, &server, &node) == 0)
        // Armed at 0 s: never beyond 0 + 900 s (MaxCumulativeFailsafeSeconds).
        #expect(node.failSafe?.deadline == NodeFixture.at(seconds: 900))
    }

    @Test func anotherFabricFindsTheFailSafeBusy() throws {
        var server = GeneralCommissioningServer()
        var node = NodeFixture.node(fabrics: [
            try NodeFixture.fabric(index: 1, admin: 0xA), try NodeFixture.fabric(index: 2, fabricID: 0xB, admin: 0xB),
        ])
        node.commissioningWindow = nil
        #expect(
            Self.arm(
                60, &server, &node,
                request: ClusterRequest(endpoint: 0, context: NodeFixture.caseContext(fabric: 1, subject: 0xA))) == 0)
        let busy = GeneralCommissioningCluster.CommissioningErrorEnum.busyWithOtherAdmin.rawValue
        #expect(
            Self.arm(
                60, &server, &node,
                request: ClusterRequest(endpoint: 0, context: NodeFixture.caseContext(fabric: 2, subject: 0xB))) == busy
        )
    }

    @Test func commissioningCompleteNeedsCASEOnTheFabricOfTheFailSafe() throws {
        var server = GeneralCommissioningServer()
        var node = NodeFixture.node()
        let complete = Commands.CommissioningComplete.id.rawValue
        #expect(
            Self.errorCode(server.invoke(complete, fields: nil, in: &node, request: Self.request))
                == GeneralCommissioningCluster.CommissioningErrorEnum.noFailSafe.rawValue)
        #expect(Self.arm(60, &server, &node) == 0)
        node.fabrics.append(try NodeFixture.fabric(index: 1, admin: 0xA))
        node.failSafe?.addedFabric = 1
        let invalid = GeneralCommissioningCluster.CommissioningErrorEnum.invalidAuthentication.rawValue
        #expect(Self.errorCode(server.invoke(complete, fields: nil, in: &node, request: Self.request)) == invalid)
        let otherFabric = ClusterRequest(endpoint: 0, context: NodeFixture.caseContext(fabric: 2, subject: 0xA))
        #expect(Self.errorCode(server.invoke(complete, fields: nil, in: &node, request: otherFabric)) == invalid)
        let sameFabric = ClusterRequest(endpoint: 0, context: NodeFixture.caseContext(fabric: 1, subject: 0xA))
        #expect(Self.errorCode(server.invoke(complete, fields: nil, in: &node, request: sameFabric)) == 0)
        #expect(node.failSafe == nil)
        #expect(node.commissioningWindow == nil)
        #expect(node.fabrics.map(\.index) == [1])
        #expect(node.effects.contains(.closePASESessions))
    }
}
