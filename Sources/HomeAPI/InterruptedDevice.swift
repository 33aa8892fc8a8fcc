import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// A device whose adding was interrupted after it took the hub's credentials (the process adding it died, Matter Core
/// §5.5): it is not one of the home's devices yet, and may hold the hub's fabric. The hub finishes adding it when it
/// answers (when a hub starts, and before the next commissioning); until then an app can show it as "adding
/// interrupted", and `remove()` lets the user give up on it.
public struct InterruptedDevice: Identifiable, Hashable, Sendable {
    /// Its node ID, 16 hex digits (as `home devices --multipart` names a node).
    public let id: String
    public let vendorID: UInt16
    public let productID: UInt16
    /// The product's name, when the hub read it before the interruption.
    public let productName: String?
    /// The last step of its commissioning that was done ("add NOC", "commissioning complete"), when recorded.
    public let lastStep: String?
    /// When that step was recorded.
    public let interruptedAt: Date
    let nodeID: UInt64
    let context: HomeContext

    init(_ node: NodeRecord, context: HomeContext) {
        id = HubEngine.nodeDeviceID(node.nodeID)
        vendorID = node.vendorID
        productID = node.productID
        productName = node.productName
        lastStep = node.stepReached?.description
        interruptedAt = node.updatedAt
        nodeID = node.nodeID
        self.context = context
    }

    /// Gives up on the device: it is asked to leave the hub's fabric (for at most 10 s) and forgotten. Returns why it
    /// did not leave the fabric when it did not (it could not be reached, or its fail-safe had already rolled the
    /// fabric back); nil when it left. Allowed to whoever may add devices to the default structure.
    @discardableResult
    public func remove() async throws(HomeError) -> String? {
        let fabricRemovalFailure = try await context.perform(Decommission(nodeID: nodeID))
            .fabricRemovalFailure
        return fabricRemovalFailure
    }

    public static func == (lhs: InterruptedDevice, rhs: InterruptedDevice) -> Bool {
        lhs.id == rhs.id && lhs.vendorID == rhs.vendorID && lhs.productID == rhs.productID
            && lhs.productName == rhs.productName && lhs.lastStep == rhs.lastStep
            && lhs.interruptedAt == rhs.interruptedAt
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(lastStep)
        hasher.combine(interruptedAt)
    }
}

extension Home {
    /// The devices whose adding was interrupted and is not finished yet (most homes have none), live as the other
    /// queries are.
    public func interruptedDevices() -> Query<InterruptedDevice> {
        context.query { context throws(HomeError) in
            Set(context.model.snapshot.interrupted.values.map { InterruptedDevice($0, context: context) })
        }
    }
}
