import Foundation
import HomeRecords

/// The hub process as `home status` shows it.
public struct HubStatus: Codable, Sendable, Hashable {
    public let pid: Int32
    /// The state directory it serves.
    public let stateDirectory: String
    public let startedAt: Double
    public let nodesOnline: Int
    public let nodesOffline: Int
    /// Nodes whose connection is being set up or has not started.
    public let nodesUnknown: Int
    /// Nodes an interrupted commissioning left, not part of the home until they are finished or removed
    /// (`Home.interruptedDevices()`).
    public let nodesInterrupted: Int
    public let clients: Int

    package init(
        pid: Int32, stateDirectory: String, startedAt: Double, nodesOnline: Int, nodesOffline: Int, nodesUnknown: Int,
        nodesInterrupted: Int, clients: Int
    ) {
        self.pid = pid
        self.stateDirectory = stateDirectory
        self.startedAt = startedAt
        self.nodesOnline = nodesOnline
        self.nodesOffline = nodesOffline
        self.nodesUnknown = nodesUnknown
        self.nodesInterrupted = nodesInterrupted
        self.clients = clients
    }

    /// Where its clients connect.
    public var socketPath: String { stateDirectory + "/" + HubProtocol.socketName }
}

/// What `home commission` added.
public struct CommissionedDevice: Codable, Sendable, Hashable {
    public let nodeID: UInt64
    public let vendorID: UInt16
    public let productID: UInt16
    public let devices: [DeviceID]
    public let elapsedSeconds: Double
    /// Each step the commissioning took, in order, with how long it took.
    public let steps: [Step]

    public struct Step: Codable, Sendable, Hashable {
        public let step: String
        public let seconds: Double

        package init(step: String, seconds: Double) {
            self.step = step
            self.seconds = seconds
        }
    }

    package init(
        nodeID: UInt64, vendorID: UInt16, productID: UInt16, devices: [DeviceID], elapsedSeconds: Double, steps: [Step]
    ) {
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.devices = devices
        self.elapsedSeconds = elapsedSeconds
        self.steps = steps
    }
}

/// One line of a request's progress, as the hub tells it while the request runs.
public enum HubProgress: Codable, Sendable, Hashable {
    /// A commissioning step done, in this many seconds.
    case finished(step: String, seconds: Double)
    case note(String)
    /// A transfer under way (a firmware image to a device): how far, and how fast.
    case transfer(percent: Int, bytesPerSecond: Double)
}

extension Duration {
    /// As the socket carries a duration: seconds, a JSON number.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
