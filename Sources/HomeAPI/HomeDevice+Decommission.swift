import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel

/// Removing a device from the home: the hub asks its node to leave the hub's fabric (Matter Core §11.18.6.12
/// RemoveFabric) and forgets the node. A node is removed whole: removing one of its devices removes them all, which
/// `checkDecommissionEligibility()` tells beforehand.
extension HomeDevice {
    public enum DecommissionEligibility: Hashable, Sendable {
        case eligible
        /// Allowed, and it removes other devices too.
        case eligibleWithSideEffects(DecommissionSideEffect)
        case ineligible(reason: DecommissionIneligibleReason)
    }

    public enum DecommissionSideEffect: Hashable, Sendable {
        /// The device is a bridge: its bridged devices go with it.
        case bridge(bridgedDeviceIDs: Set<String>)
        /// The device is one of several of one node (a 4-switch panel is 4 devices): they all go.
        case multipleAffectedDevices(deviceIDs: Set<String>)
    }

    public enum DecommissionIneligibleReason: Hashable, Sendable {
        /// The caller may not add (so may not remove) devices in the device's structure.
        case notAuthorized
        /// The device sits behind a Matter bridge: remove the bridge, or remove the device through the bridge's own app.
        case bridgedDevice
    }

    /// Whether `decommissionDevice()` may remove this device, and which devices it would remove with it (every
    /// device of its node, this one included).
    public func checkDecommissionEligibility() async throws(HomeError) -> DecommissionEligibility {
        do throws(HomeError) {
            try await requireDecommissionPermission()
        } catch  where error.code == .permissionDenied {
            return .ineligible(reason: .notAuthorized)
        }
        return try eligibility().eligibility
    }

    /// Removes the device (with every other device of its node) from the home and returns the IDs of the devices
    /// removed, as this device's view names them (the endpoint devices; the one device with multipart devices on). The
    /// node is first asked to leave the hub's fabric, for at most 10 s; a node that cannot be reached, or refuses, is
    /// forgotten all the same, and keeps a fabric nobody uses until it is factory reset. Refused with
    /// `failedPrecondition` for a bridged device, and with `permissionDenied` to a caller who may not add devices to
    /// the structure.
    public func decommissionDevice() async throws(HomeError) -> Set<String> {
        try await decommission().removedDeviceIDs
    }

    /// `decommissionDevice()`, also telling whether the node left the hub's fabric: for the `home` tool, which says so.
    public func decommission() async throws(HomeError) -> Decommissioning {
        try await requireDecommissionPermission()
        let (eligibility, nodeDeviceIDs) = try eligibility()
        if case .ineligible = eligibility {
            throw HomeError(
                .failedPrecondition,
                "\(name) (\(id)) is a bridged device: remove its bridge, or remove it in the bridge's own app")
        }
        let fabricRemovalFailure = try await context.perform(Decommission(nodeID: nodeID))
            .fabricRemovalFailure
        return Decommissioning(
            removedDeviceIDs: isMultipart ? [id] : nodeDeviceIDs, fabricRemovalFailure: fabricRemovalFailure)
    }

    /// The eligibility of a caller who holds the permission, and the IDs of the node's endpoint devices.
    private func eligibility() throws(HomeError) -> (eligibility: DecommissionEligibility, nodeDeviceIDs: Set<String>) {
        let nodeDevices = context.model.devices(of: nodeID) ?? []
        let ids = Set(nodeDevices.map(\.id.description))
        let bridged = nodeDevices.filter {
            $0.deviceTypes.contains { $0.deviceType == MatterDeviceTypes.bridgedNode.id.rawValue }
        }
        if !isMultipart, bridged.contains(where: { $0.id.description == id }) {
            return (.ineligible(reason: .bridgedDevice), ids)
        }
        if isMultipart, !bridged.isEmpty {
            return (.eligibleWithSideEffects(.bridge(bridgedDeviceIDs: Set(bridged.map(\.id.description)))), ids)
        }
        return (ids.count > 1 ? .eligibleWithSideEffects(.multipleAffectedDevices(deviceIDs: ids)) : .eligible, ids)
    }

    public struct Decommissioning: Sendable {
        public let removedDeviceIDs: Set<String>
        /// Why the node did not leave the hub's fabric, when it did not.
        public let fabricRemovalFailure: String?
    }

    /// Removing a device is allowed to whoever may add devices to its structure: asked of the hub, which knows who
    /// is asking.
    private func requireDecommissionPermission() async throws(HomeError) {
        _ = try await context.perform(CheckCommissioningPermission(structureID: structureID))
    }
}
