import Foundation
import HomeHub
import HomeRecords

/// A hub on a fresh temporary state directory with a commissioned node whose endpoints 1 and 2 are an On/Off Light
/// and a Dimmable Light ("Desk lamp 1", "Desk lamp 2"), as `Hub.commission` leaves them. The node has no known
/// address, so a live command finds it offline at once instead of waiting on the network.
enum HomeFixture {
    static let nodeID: UInt64 = 0x391D_788B_9528_D5FA

    static func hubWithLamps(room: String? = nil) async throws -> String {
        let state = HubCommandsTests.temporaryState()
        let hub = try await Hub(statePath: state)
        try await hub.store.beginCommissioning(
            nodeID: nodeID, vendorID: 0xFFF4, productID: 0x1234,
            attestation: NodeRecord.Attestation(verdict: "trusted PAA", trusted: true))
        try await hub.store.setEndpoints(
            [
                EndpointDeviceType(endpoint: 0, deviceType: 0x0016, revision: 3),
                EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3),
                EndpointDeviceType(endpoint: 2, deviceType: 0x0100, revision: 3),
                EndpointDeviceType(endpoint: 2, deviceType: 0x0101, revision: 3),
            ], of: nodeID)
        try await hub.store.updateIdentity(
            of: nodeID, vendorName: "CircuitMatter", productName: "Lamp", serialNumber: nil)
        try await hub.store.markCommissioned(nodeID)
        try await hub.store.addDevices(of: nodeID, named: "Desk lamp", inRoom: room)
        return state
    }

    static let panelNodeID: UInt64 = 0x7A1B_2C3D_4E5F_6071

    /// `hubWithLamps`, then a 4-switch panel (a Generic Switch on endpoints 1–4) whose buttons carry Common Number tags
    /// 1–4, the fourth with a label of its own, in no room.
    static func hubWithLampsAndPanel() async throws -> String {
        let state = try await hubWithLamps(room: "Office")
        let hub = try await Hub(statePath: state)
        try await hub.store.beginCommissioning(
            nodeID: panelNodeID, vendorID: 0xFFF1, productID: 0x8004,
            attestation: NodeRecord.Attestation(verdict: "trusted PAA", trusted: true))
        try await hub.store.setEndpoints(
            [EndpointDeviceType(endpoint: 0, deviceType: 0x0016, revision: 3)]
                + (1...4).map { EndpointDeviceType(endpoint: $0, deviceType: 0x000F, revision: 3) },
            tags: (1...4).map {
                EndpointSemanticTag(endpoint: $0, namespaceID: 0x07, tag: UInt8($0), label: $0 == 4 ? "Night" : nil)
            },
            of: panelNodeID)
        try await hub.store.updateIdentity(
            of: panelNodeID, vendorName: "swift-home", productName: "4-Switch Panel", serialNumber: nil)
        try await hub.store.markCommissioned(panelNodeID)
        try await hub.store.addDevices(of: panelNodeID, named: "Panel", inRoom: nil)
        return state
    }
}
