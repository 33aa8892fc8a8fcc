import Foundation
import HomeHub
import MatterCrypto
import MatterDataModel
import MatterInteraction

/// A window in which another ecosystem (another phone's home app, Home Assistant, a second hub) can add the device:
/// the codes to give it, and when the window closes.
public struct CommissioningWindow: Sendable, Hashable {
    public let qrCode: String
    public let manualCode: String
    public let discriminator: UInt16
    public let expiresAt: Date
}

/// Whether the device's node can be added by another ecosystem now (Matter Core §11.19.7.1 WindowStatus).
public enum CommissioningWindowStatus: Sendable, Hashable {
    case closed
    /// Open with a passcode of its own (`openCommissioningWindow`).
    case enhanced
    /// Open with the device's own setup code (`openBasicCommissioningWindow`).
    case basic
}

/// One ecosystem that controls the device's node: a fabric on it (Matter Core §11.18.5.3 FabricDescriptorStruct).
public struct DeviceFabric: Sendable, Hashable {
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
        let connection = try await administered()
        guard let node = context.model.devices(of: nodeID)?.first?.node else {
            throw HomeError(.notFound, "\(name) (\(id)) is no longer in the home")
        }
        let window: EnhancedCommissioningWindow
        do {
            window = try EnhancedCommissioningWindow(
                timeoutSeconds: seconds, vendorID: node.vendorID, productID: node.productID)
        } catch {
            throw HomeError(.internal, "cannot compute the window's passcode verifier: \(error)")
        }
        do {
            try await connection.invoke(window.command, endpoint: 0)
        } catch {
            throw refusal(error, command: "AdministratorCommissioning.OpenCommissioningWindow")
        }
        do {
            return CommissioningWindow(
                qrCode: try window.payload.qrCode(), manualCode: try window.payload.manualCode(),
                discriminator: window.discriminator, expiresAt: Date().addingTimeInterval(Double(seconds)))
        } catch {
            throw HomeError(.internal, "the window opened, but its code cannot be written: \(error)")
        }
    }

    /// Opens a basic commissioning window (§11.19.8.2) for `timeout` (3 to 15 minutes): the device's own setup code,
    /// the one on its label, commissions it again meanwhile. For a device whose Administrator Commissioning offers
    /// only that (`unimplemented` when it does not offer it either); returns when the window closes. Same refusals as
    /// `openCommissioningWindow`.
    public func openBasicCommissioningWindow(timeout: Duration = .seconds(180)) async throws(HomeError) -> Date {
        let seconds = try Self.windowSeconds(timeout)
        try refuseBridged()
        let connection = try await administered()
        do {
            try await connection.invoke(
                AdministratorCommissioningCluster.Commands.OpenBasicCommissioningWindow(
                    commissioningTimeout: seconds), endpoint: 0)
        } catch {
            throw refusal(error, command: "AdministratorCommissioning.OpenBasicCommissioningWindow")
        }
        return Date().addingTimeInterval(Double(seconds))
    }

    /// Closes the commissioning window open on the device's node (whoever opened it); `failedPrecondition` when none
    /// is open.
    public func revokeCommissioningWindow() async throws(HomeError) {
        let connection = try await administered()
        do {
            try await connection.invoke(AdministratorCommissioningCluster.Commands.RevokeCommissioning(), endpoint: 0)
        } catch {
            if case .interaction(let interaction) = error,
                interaction.clusterStatus == AdministratorCommissioningCluster.StatusCode.windowNotOpen.rawValue
            {
                throw HomeError(.failedPrecondition, "\(name) (\(id)) has no commissioning window open")
            }
            throw HomeError(error, command: "AdministratorCommissioning.RevokeCommissioning")
        }
    }

    /// Whether a commissioning window is open on the device's node now, read from the node.
    public func commissioningWindowStatus() async throws(HomeError) -> CommissioningWindowStatus {
        let connection = try await administered()
        let attribute = AdministratorCommissioningCluster.Attributes.windowStatus
        let report: InteractionReport
        do {
            report = try await connection.read([attribute.path(endpoint: 0)], isFabricFiltered: true)
        } catch {
            throw HomeError(error, command: "read AdministratorCommissioning.WindowStatus")
        }
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        switch try? cache.value(attribute, endpoint: 0) {
        case .enhancedWindowOpen?: return .enhanced
        case .basicWindowOpen?: return .basic
        case .windowNotOpen?: return .closed
        default:
            throw HomeError(
                .dataLoss, "\(name) (\(id)): AdministratorCommissioning.WindowStatus is missing or malformed")
        }
    }

    /// Every ecosystem that controls the device's node: its fabrics, read across fabrics (not fabric-filtered), in
    /// index order, this hub's marked.
    public func fabrics() async throws(HomeError) -> [DeviceFabric] {
        let connection = try await live()
        let fabricsAttribute = OperationalCredentialsCluster.Attributes.fabrics
        let currentAttribute = OperationalCredentialsCluster.Attributes.currentFabricIndex
        let report: InteractionReport
        do {
            report = try await connection.read(
                [fabricsAttribute.path(endpoint: 0), currentAttribute.path(endpoint: 0)], isFabricFiltered: false)
        } catch {
            throw HomeError(error, command: "read OperationalCredentials.Fabrics")
        }
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        let descriptors: [OperationalCredentialsCluster.FabricDescriptorStruct]
        let current: UInt8?
        do {
            descriptors = try cache.value(fabricsAttribute, endpoint: 0) ?? []
            current = try cache.value(currentAttribute, endpoint: 0)
        } catch {
            throw HomeError(.dataLoss, "\(name) (\(id)): OperationalCredentials.Fabrics does not decode: \(error)")
        }
        return descriptors.compactMap { descriptor in
            guard let index = descriptor.fabricIndex else { return nil }
            return DeviceFabric(
                index: index, vendorID: descriptor.vendorID, vendorName: VendorNames.name(of: descriptor.vendorID),
                label: descriptor.label, nodeID: descriptor.nodeID, fabricID: descriptor.fabricID,
                rootKeyFingerprint: Self.fingerprint(descriptor.rootPublicKey), isThisHub: index == current)
        }.sorted { $0.index < $1.index }
    }

    /// Removes another ecosystem's fabric from the device's node: that ecosystem can no longer reach the device.
    /// This hub's own fabric is refused (`failedPrecondition`: remove the device from the home instead), an index the
    /// node does not have is `notFound`.
    public func removeFabric(index: UInt8) async throws(HomeError) {
        let present = try await fabrics()
        guard let fabric = present.first(where: { $0.index == index }) else {
            throw HomeError(
                .notFound,
                "\(name) (\(id)) has no fabric \(index) (its fabrics: "
                    + present.map { "\($0.index)" }.joined(separator: ", ") + ")")
        }
        guard !fabric.isThisHub else {
            throw HomeError(
                .failedPrecondition,
                "fabric \(index) is this hub's own: remove the device from the home instead")
        }
        let connection = try await live()
        let response: OperationalCredentialsCluster.Commands.NOCResponse
        do {
            response = try await connection.invoke(
                OperationalCredentialsCluster.Commands.RemoveFabric(fabricIndex: index), endpoint: 0)
        } catch {
            throw HomeError(error, command: "OperationalCredentials.RemoveFabric")
        }
        guard response.statusCode == .ok else {
            throw HomeError(
                response.statusCode == .invalidFabricIndex ? .notFound : .failedPrecondition,
                "\(name) (\(id)) did not remove fabric \(index): \(response.statusCode)")
        }
    }

    private static func fingerprint(_ key: [UInt8]) -> String {
        SHA256.hash(key).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
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

    /// A refused window: BUSY says one is open already (or a commissioning is under way).
    private func refusal(_ error: NodeConnectionError, command: String) -> HomeError {
        if case .interaction(let interaction) = error,
            interaction.clusterStatus == AdministratorCommissioningCluster.StatusCode.busy.rawValue
        {
            return HomeError(
                .failedPrecondition,
                "\(name) (\(id)) already has a commissioning window open, or is being commissioned: "
                    + "try again once it closes, or revoke it first")
        }
        return HomeError(error, command: command)
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

    /// The node's live connection, online.
    private func live() async throws(HomeError) -> NodeConnection {
        let connection = try await context.embedded("sharing a device").live.connection(to: nodeID)
        do {
            try await connection.connected()
        } catch {
            throw HomeError(error, command: "connect")
        }
        return connection
    }

    /// The node's live connection, once its root endpoint is known to serve Administrator Commissioning.
    private func administered() async throws(HomeError) -> NodeConnection {
        let connection = try await live()
        let serverList = DescriptorCluster.Attributes.serverList
        if let served = try? await connection.cache.value(serverList, endpoint: 0),
            !served.contains(AdministratorCommissioningCluster.id)
        {
            throw HomeError(
                .unimplemented, "\(name) (\(id)) has no Administrator Commissioning: it cannot be shared")
        }
        return connection
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
