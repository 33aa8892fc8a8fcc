import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterCrypto
import MatterDataModel
import MatterInteraction

/// Sharing a device with another ecosystem (multi-admin, Matter Core §5.5 and §11.19) and seeing who controls it.
extension HomeDevice {
    /// Opens an enhanced commissioning window on the device's node for `timeout` (3 to 15 minutes, §11.19.8.1),
    /// with a fresh random passcode, and returns the codes for the other ecosystem. A bridged device is shared
    /// through its bridge (`failedPrecondition`); a node without Administrator Commissioning is `unimplemented`; a
    /// window already open is `failedPrecondition`; an unreachable node `unavailable`. Nothing changes on failure.
    public func openCommissioningWindow(
        timeout: Duration = .seconds(180)
    ) async throws(HomeError) -> CommissioningWindow {
        let seconds = try Self.windowSeconds(timeout)
        try refuseBridged()
        return try await context.perform(OpenCommissioningWindow(try shared(), seconds: seconds))
    }

    /// Opens a basic commissioning window (§11.19.8.2) for `timeout` (3 to 15 minutes): the device's own setup code,
    /// the one on its label, commissions it again meanwhile. For a device whose Administrator Commissioning offers
    /// only that (`unimplemented` when it does not offer it either); returns when the window closes. Same refusals as
    /// `openCommissioningWindow`.
    public func openBasicCommissioningWindow(timeout: Duration = .seconds(180)) async throws(HomeError) -> Date {
        let seconds = try Self.windowSeconds(timeout)
        try refuseBridged()
        return try await context.perform(OpenBasicCommissioningWindow(try shared(), seconds: seconds))
    }

    /// Closes the commissioning window open on the device's node (whoever opened it); `failedPrecondition` when none
    /// is open.
    public func revokeCommissioningWindow() async throws(HomeError) {
        _ = try await context.perform(RevokeCommissioningWindow(try shared()))
    }

    /// Whether a commissioning window is open on the device's node now, read from the node.
    public func commissioningWindowStatus() async throws(HomeError) -> CommissioningWindowStatus {
        try await context.perform(ReadCommissioningWindowStatus(try shared()))
    }

    /// Every ecosystem that controls the device's node: its fabrics, read across fabrics (not fabric-filtered), in
    /// index order, this hub's marked.
    public func fabrics() async throws(HomeError) -> [DeviceFabric] {
        try await context.perform(ReadFabrics(try shared()))
    }

    /// Removes another ecosystem's fabric from the device's node: that ecosystem can no longer reach the device.
    /// This hub's own fabric is refused (`failedPrecondition`: remove the device from the home instead), an index the
    /// node does not have is `notFound`.
    public func removeFabric(index: UInt8) async throws(HomeError) {
        _ = try await context.perform(RemoveFabric(try shared(), index: index))
    }

    /// The device as the hub's sharing requests name it.
    private func shared() throws(HomeError) -> SharedDevice {
        guard let node = context.model.devices(of: nodeID)?.first?.node else {
            throw HomeError(.notFound, "\(name) (\(id)) is no longer in the home")
        }
        return SharedDevice(
            nodeID: nodeID, vendorID: node.vendorID, productID: node.productID, label: "\(name) (\(id))")
    }

    /// §11.19.8.1.1: a window's timeout in whole seconds within the bounds every window has.
    private static func windowSeconds(_ timeout: Duration) throws(HomeError) -> UInt16 {
        let seconds = timeout.components.seconds
        let range = EnhancedCommissioningWindow.timeoutRange
        guard timeout.components.attoseconds == 0, seconds >= Int64(range.lowerBound),
            seconds <= Int64(range.upperBound)
        else {
            throw HomeError(
                .invalidArgument,
                "a commissioning window stays open \(range.lowerBound) to \(range.upperBound) seconds, not \(timeout)")
        }
        return UInt16(seconds)
    }

    /// A bridged device's node is its bridge: sharing it would share every device of the bridge.
    private func refuseBridged() throws(HomeError) {
        let bridged = MatterDeviceTypes.bridgedNode.id.rawValue
        let records = context.model.devices(of: nodeID) ?? []
        if !isMultipart,
            records.contains(where: { $0.id.description == id && $0.deviceTypes.contains { $0.deviceType == bridged } })
        {
            throw HomeError(
                .failedPrecondition,
                "\(name) (\(id)) is a bridged device: share its bridge, which brings every device of the bridge")
        }
    }
}
