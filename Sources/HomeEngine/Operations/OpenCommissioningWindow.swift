import Foundation
import HomeHub
import HubWire
import MatterInteraction

/// An enhanced commissioning window on the device's node, with a passcode of its own: the codes another ecosystem
/// adds the device with (Matter Core §11.19.8.1).
public struct OpenCommissioningWindow: HubOperation {
    public static let name = "openCommissioningWindow"
    public let device: SharedDevice
    public let seconds: UInt16

    public init(_ device: SharedDevice, seconds: UInt16) {
        self.device = device
        self.seconds = seconds
    }

    public var access: HubAccess { .nodeRight(.administer, nodeID: device.nodeID) }
    public var summary: String { "share a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> CommissioningWindow {
        let connection = try await scope.engine.administered(device)
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
            throw HubEngine.windowRefusal(error, device, command: "AdministratorCommissioning.OpenCommissioningWindow")
        }
        do {
            return CommissioningWindow(
                qrCode: try window.payload.qrCode(), manualCode: try window.payload.manualCode(),
                discriminator: window.discriminator, expiresAt: Date().addingTimeInterval(Double(seconds)))
        } catch {
            throw HomeError(.internal, "the window opened, but its code cannot be written: \(error)")
        }
    }
}
