import HubWire
import MatterDataModel

/// Closes the device's open commissioning window (Matter Core §11.19.8.3).
public struct RevokeCommissioningWindow: HubOperation {
    public static let name = "revokeCommissioningWindow"
    public let device: SharedDevice

    public init(_ device: SharedDevice) {
        self.device = device
    }

    public var access: HubAccess { .nodeRight(.administer, nodeID: device.nodeID) }
    public var summary: String { "share a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let connection = try await scope.engine.administered(device)
        do {
            try await connection.invoke(AdministratorCommissioningCluster.Commands.RevokeCommissioning(), endpoint: 0)
        } catch {
            if case .interaction(let interaction) = error,
                interaction.clusterStatus == AdministratorCommissioningCluster.StatusCode.windowNotOpen.rawValue
            {
                throw HomeError(.failedPrecondition, "\(device.label) has no commissioning window open")
            }
            throw HomeError(error, command: "AdministratorCommissioning.RevokeCommissioning")
        }
        return Done()
    }
}
