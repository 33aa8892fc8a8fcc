import Foundation
import HomeHub
import MatterCrypto
import MatterDataModel
import MatterInteraction

/// A window in which another ecosystem (another phone's home app, Home Assistant, a second hub) can add the device:
/// the codes to give it, and when the window closes.
public struct CommissioningWindow: Sendable, Hashable, Codable {
    public let qrCode: String
    public let manualCode: String
    public let discriminator: UInt16
    public let expiresAt: Date
}

/// Whether the device's node can be added by another ecosystem now (Matter Core §11.19.7.1 WindowStatus).
public enum CommissioningWindowStatus: Sendable, Hashable, Codable {
    case closed
    /// Open with a passcode of its own (`openCommissioningWindow`).
    case enhanced
    /// Open with the device's own setup code (`openBasicCommissioningWindow`).
    case basic
}

/// One ecosystem that controls the device's node: a fabric on it (Matter Core §11.18.5.3 FabricDescriptorStruct).
public struct DeviceFabric: Sendable, Hashable, Codable {
    public let index: UInt8
    public let vendorID: UInt16
    /// The ecosystem's name for the vendor IDs people meet; nil for others.
    public let vendorName: String?
    public let label: String
    /// The node's ID on that fabric.
    public let nodeID: UInt64
    public let fabricID: UInt64
    /// The first 8 bytes of SHA-256 of the fabric's root public key, in hex: what tells two fabrics of one vendor apart.
    public let rootKeyFingerprint: String
    /// Whether this is this hub's own fabric.
    public let isThisHub: Bool
}

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
        guard
            case .window(let window) = try await context.perform(
                .openCommissioningWindow(try shared(), seconds: seconds))
        else { throw HomeError(.internal, "the hub answered opening a window with something else") }
        return window
    }

    /// Opens a basic commissioning window (§11.19.8.2) for `timeout` (3 to 15 minutes): the device's own setup code,
    /// the one on its label, commissions it again meanwhile. For a device whose Administrator Commissioning offers
    /// only that (`unimplemented` when it does not offer it either); returns when the window closes. Same refusals as
    /// `openCommissioningWindow`.
    public func openBasicCommissioningWindow(timeout: Duration = .seconds(180)) async throws(HomeError) -> Date {
        let seconds = try Self.windowSeconds(timeout)
        try refuseBridged()
        guard
            case .closesAt(let date) = try await context.perform(
                .openBasicCommissioningWindow(try shared(), seconds: seconds))
        else { throw HomeError(.internal, "the hub answered opening a window with something else") }
        return date
    }

    /// Closes the commissioning window open on the device's node (whoever opened it); `failedPrecondition` when none
    /// is open.
    public func revokeCommissioningWindow() async throws(HomeError) {
        _ = try await context.perform(.revokeCommissioningWindow(try shared()))
    }

    /// Whether a commissioning window is open on the device's node now, read from the node.
    public func commissioningWindowStatus() async throws(HomeError) -> CommissioningWindowStatus {
        guard case .windowStatus(let status) = try await context.perform(.commissioningWindowStatus(try shared()))
        else { throw HomeError(.internal, "the hub answered the window's status with something else") }
        return status
    }

    /// Every ecosystem that controls the device's node: its fabrics, read across fabrics (not fabric-filtered), in
    /// index order, this hub's marked.
    public func fabrics() async throws(HomeError) -> [DeviceFabric] {
        guard case .fabrics(let fabrics) = try await context.perform(.fabrics(try shared())) else {
            throw HomeError(.internal, "the hub answered the fabrics with something else")
        }
        return fabrics
    }

    /// Removes another ecosystem's fabric from the device's node: that ecosystem can no longer reach the device.
    /// This hub's own fabric is refused (`failedPrecondition`: remove the device from the home instead), an index the
    /// node does not have is `notFound`.
    public func removeFabric(index: UInt8) async throws(HomeError) {
        _ = try await context.perform(.removeFabric(try shared(), index: index))
    }

    /// The device as the hub's sharing requests name it.
    private func shared() throws(HomeError) -> HubRequest.SharedDevice {
        guard let node = context.model.devices(of: nodeID)?.first?.node else {
            throw HomeError(.notFound, "\(name) (\(id)) is no longer in the home")
        }
        return HubRequest.SharedDevice(
            nodeID: nodeID, vendorID: node.vendorID, productID: node.productID, structureID: structureID,
            label: "\(name) (\(id))")
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

/// Names for the vendor IDs a user meets on a device's fabrics (the CSA's Distributed Compliance Ledger's names).
enum VendorNames {
    static let known: [UInt16: String] = [
        0x1349: "Apple Home", 0x6006: "Google", 0x1217: "Amazon Alexa", 0x10E1: "Samsung SmartThings",
        0x134B: "Home Assistant (Nabu Casa)",
        0xFFF1: "test vendor 1", 0xFFF2: "test vendor 2", 0xFFF3: "test vendor 3", 0xFFF4: "test vendor 4",
    ]

    static func name(of vendorID: UInt16) -> String? {
        known[vendorID]
    }
}
