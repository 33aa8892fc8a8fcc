import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterCrypto
import MatterDataModel
import MatterInteraction

/// Sharing a device with another ecosystem as the hub carries it out, over its live session to the node: the
/// commissioning windows, and the node's fabrics. Whoever may add devices to the device's structure may share it.
extension HubEngine {
    func executeSharing(
        _ request: HubRequest, caller: HubCaller, model: HomeModel
    ) async throws(HomeError) -> HubReply {
        if let device = request.sharedDevice {
            let name = model.snapshot.structures.first { $0.id == device.structureID }?.name ?? device.structureID
            try await requireCommissioningPermission(caller, structureID: device.structureID, structureName: name)
        }
        switch request {
        case .openCommissioningWindow(let device, let seconds):
            let connection = try await administered(device)
            let window: EnhancedCommissioningWindow
            do {
                window = try EnhancedCommissioningWindow(
                    timeoutSeconds: seconds, vendorID: device.vendorID, productID: device.productID)
            } catch {
                throw HomeError(.internal, "cannot compute the window's passcode verifier: \(error)")
            }
            do {
                try await connection.invoke(window.command, endpoint: 0)
            } catch {
                throw refusal(error, device, command: "AdministratorCommissioning.OpenCommissioningWindow")
            }
            do {
                return .window(
                    CommissioningWindow(
                        qrCode: try window.payload.qrCode(), manualCode: try window.payload.manualCode(),
                        discriminator: window.discriminator, expiresAt: Date().addingTimeInterval(Double(seconds))))
            } catch {
                throw HomeError(.internal, "the window opened, but its code cannot be written: \(error)")
            }
        case .openBasicCommissioningWindow(let device, let seconds):
            let connection = try await administered(device)
            do {
                try await connection.invoke(
                    AdministratorCommissioningCluster.Commands.OpenBasicCommissioningWindow(
                        commissioningTimeout: seconds), endpoint: 0)
            } catch {
                throw refusal(error, device, command: "AdministratorCommissioning.OpenBasicCommissioningWindow")
            }
            return .closesAt(Date().addingTimeInterval(Double(seconds)))
        case .revokeCommissioningWindow(let device):
            let connection = try await administered(device)
            do {
                try await connection.invoke(
                    AdministratorCommissioningCluster.Commands.RevokeCommissioning(), endpoint: 0)
            } catch {
                if case .interaction(let interaction) = error,
                    interaction.clusterStatus == AdministratorCommissioningCluster.StatusCode.windowNotOpen.rawValue
                {
                    throw HomeError(.failedPrecondition, "\(device.label) has no commissioning window open")
                }
                throw HomeError(error, command: "AdministratorCommissioning.RevokeCommissioning")
            }
            return .done
        case .commissioningWindowStatus(let device):
            return .windowStatus(try await windowStatus(device))
        case .fabrics(let device):
            return .fabrics(try await fabrics(device))
        case .removeFabric(let device, let index):
            let present = try await fabrics(device)
            guard let fabric = present.first(where: { $0.index == index }) else {
                throw HomeError(
                    .notFound,
                    "\(device.label) has no fabric \(index) (its fabrics: "
                        + present.map { "\($0.index)" }.joined(separator: ", ") + ")")
            }
            guard !fabric.isThisHub else {
                throw HomeError(
                    .failedPrecondition, "fabric \(index) is this hub's own: remove the device from the home instead")
            }
            let connection = try await online(device)
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
                    "\(device.label) did not remove fabric \(index): \(response.statusCode)")
            }
            return .done
        default:
            throw HomeError(.internal, "\(request.summary) is not a sharing request")
        }
    }

    private func windowStatus(_ device: HubRequest.SharedDevice) async throws(HomeError) -> CommissioningWindowStatus {
        let connection = try await administered(device)
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
                .dataLoss, "\(device.label): AdministratorCommissioning.WindowStatus is missing or malformed")
        }
    }

    /// Read across fabrics (not fabric-filtered), in index order, this hub's marked.
    private func fabrics(_ device: HubRequest.SharedDevice) async throws(HomeError) -> [DeviceFabric] {
        let connection = try await online(device)
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
            throw HomeError(.dataLoss, "\(device.label): OperationalCredentials.Fabrics does not decode: \(error)")
        }
        return descriptors.compactMap { descriptor in
            guard let index = descriptor.fabricIndex else { return nil }
            return DeviceFabric(
                index: index, vendorID: descriptor.vendorID, vendorName: VendorNames.name(of: descriptor.vendorID),
                label: descriptor.label, nodeID: descriptor.nodeID, fabricID: descriptor.fabricID,
                rootKeyFingerprint: Self.fingerprint(descriptor.rootPublicKey), isThisHub: index == current)
        }.sorted { $0.index < $1.index }
    }

    private static func fingerprint(_ key: [UInt8]) -> String {
        SHA256.hash(key).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// A refused window: BUSY says one is open already (or a commissioning is under way).
    private func refusal(
        _ error: NodeConnectionError, _ device: HubRequest.SharedDevice, command: String
    ) -> HomeError {
        if case .interaction(let interaction) = error,
            interaction.clusterStatus == AdministratorCommissioningCluster.StatusCode.busy.rawValue
        {
            return HomeError(
                .failedPrecondition,
                "\(device.label) already has a commissioning window open, or is being commissioned: "
                    + "try again once it closes, or revoke it first")
        }
        return HomeError(error, command: command)
    }

    /// The node's live connection, online.
    private func online(_ device: HubRequest.SharedDevice) async throws(HomeError) -> NodeConnection {
        let connection = try await live.connection(to: device.nodeID)
        do {
            try await connection.connected()
        } catch {
            throw HomeError(error, command: "connect")
        }
        return connection
    }

    /// The node's live connection, once its root endpoint is known to serve Administrator Commissioning.
    private func administered(_ device: HubRequest.SharedDevice) async throws(HomeError) -> NodeConnection {
        let connection = try await online(device)
        let serverList = DescriptorCluster.Attributes.serverList
        if let served = try? await connection.cache.value(serverList, endpoint: 0),
            !served.contains(AdministratorCommissioningCluster.id)
        {
            throw HomeError(.unimplemented, "\(device.label) has no Administrator Commissioning: it cannot be shared")
        }
        return connection
    }
}
