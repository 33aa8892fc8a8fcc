import HubWire
import MatterDataModel

/// Another ecosystem's fabric removed from the device's node (Matter Core §11.18.6.12); never the hub's own.
public struct RemoveFabric: HubOperation {
    public static let name = "removeFabric"
    public let device: SharedDevice
    public let index: UInt8

    public init(_ device: SharedDevice, index: UInt8) {
        self.device = device
        self.index = index
    }

    public var access: HubAccess { .nodeRight(.administer, nodeID: device.nodeID) }
    public var summary: String { "share a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let engine = scope.engine
        let present = try await engine.fabrics(device)
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
        let connection = try await engine.online(device)
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
        return Done()
    }
}
