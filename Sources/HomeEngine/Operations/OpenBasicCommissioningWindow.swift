import Foundation
import HubWire
import MatterDataModel

/// A basic commissioning window on the device's node: another ecosystem adds it with the device's own setup code
/// (Matter Core §11.19.8.2). Replies when it closes.
public struct OpenBasicCommissioningWindow: HubOperation {
    public static let name = "openBasicCommissioningWindow"
    public let device: SharedDevice
    public let seconds: UInt16

    public init(_ device: SharedDevice, seconds: UInt16) {
        self.device = device
        self.seconds = seconds
    }

    public var access: HubAccess { .nodeRight(.administer, nodeID: device.nodeID) }
    public var summary: String { "share a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Date {
        let connection = try await scope.engine.administered(device)
        do {
            try await connection.invoke(
                AdministratorCommissioningCluster.Commands.OpenBasicCommissioningWindow(commissioningTimeout: seconds),
                endpoint: 0)
        } catch {
            throw HubEngine.windowRefusal(
                error, device, command: "AdministratorCommissioning.OpenBasicCommissioningWindow")
        }
        return Date().addingTimeInterval(Double(seconds))
    }
}
