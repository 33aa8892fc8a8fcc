import HubWire
import MatterDataModel
import MatterInteraction

/// Whether the device's node has a commissioning window open, and which kind (Matter Core §11.19.7.1).
public struct ReadCommissioningWindowStatus: HubOperation {
    public static let name = "readCommissioningWindowStatus"
    public let device: SharedDevice

    public init(_ device: SharedDevice) {
        self.device = device
    }

    public var access: HubAccess { .nodeRight(.administer, nodeID: device.nodeID) }
    public var summary: String { "share a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> CommissioningWindowStatus {
        let connection = try await scope.engine.administered(device)
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
}
