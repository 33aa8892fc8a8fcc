import Foundation
import HomeRecords
import MatterPlatform
import MatterTLV

/// What a `Home` asks of the hub that serves it: every operation that changes the home or reaches a device. The
/// embedded hub carries one out in this process (`HomeContext.execute`); a client sends it over the hub's local
/// socket, and the hub carries it out the same way. Reads are not requests: they come from the model, which a
/// client mirrors.
public enum HubRequest: Codable, Sendable, Hashable {
    /// A device renamed: the whole node when `multipart`, else each of `parts`.
    case renameDevice(nodeID: UInt64, parts: [DeviceID], multipart: Bool, name: String)
    case renameRoom(id: String, name: String)
    case renameStructure(id: String, name: String)
    case createRoom(name: String, structureID: String?)
    case deleteRoom(id: String)
    case moveDevices([DeviceID], roomID: String)
    /// Start following the node live, and return once it has had its first contact (or its first-contact wait).
    case follow(nodeID: UInt64)
    case invoke(Invocation)
    /// The whole node read again (`NodeConnection.reinterview`), what changed published as reports are.
    case interview(nodeID: UInt64)
    /// One attribute written (Matter Core §8.7); answered with the device's status for it (`written`).
    case writeAttribute(AttributeWrite)
    /// OnOff Toggle, or On or Off for a node that does not accept Toggle.
    case toggle(nodeID: UInt64, endpoint: UInt16)
    /// The hub itself: who it is and what it serves.
    case status
    /// Every endpoint of a node with its device types and semantic tags, as the store keeps them (endpoints that
    /// are no device of the home included: a bridge's aggregator): for `home show`.
    case nodeEndpoints(nodeID: UInt64)
    /// `home commission`: a device onto the fabric outside an add-device session, named and placed as asked, its
    /// progress told step by step (`HubProgress`). A device an earlier, interrupted commissioning left on the fabric
    /// is finished first.
    case commissionDevice(DirectCommissioning)
    /// `home ping`: a CASE session to the node from scratch (besides the hub's own), and `reads` reads over it.
    case ping(nodeID: UInt64, reads: Int)
    // The add-device flow, its session owned by the calling process (`HubCaller`).
    case prepareCommissioning(structureID: String)
    case commission(payload: String, deviceAddress: SocketAddress?)
    case configureCommissioned(name: String, room: String?)
    case completeCommissioning(structureID: String)
    case cancelCommissioning
    case grantCommissioning(uid: UInt32, structureID: String)
    case revokeCommissioning(uid: UInt32, structureID: String)
    /// Whether the caller may add (and so remove) devices in the structure: `permissionDenied` when not.
    case checkCommissioningPermission(structureID: String)
    /// Removes a node from the home (after asking it to leave the fabric); `structureID` is its device's, for the
    /// permission.
    case decommission(nodeID: UInt64, structureID: String)
    // Sharing with another ecosystem, over the hub's session to the node.
    case openCommissioningWindow(SharedDevice, seconds: UInt16)
    case openBasicCommissioningWindow(SharedDevice, seconds: UInt16)
    case revokeCommissioningWindow(SharedDevice)
    case commissioningWindowStatus(SharedDevice)
    case fabrics(SharedDevice)
    case removeFabric(SharedDevice, index: UInt8)

    public struct DirectCommissioning: Codable, Sendable, Hashable {
        public let payload: String
        public let address: SocketAddress?
        public let interfaces: [String]
        /// The trusted PAA certificates' directory; nil: none trusted (with `acceptUntrustedDevice`).
        public let paaTrustStore: String?
        public let acceptUntrustedDevice: Bool
        public var name: String?
        public var room: String?

        public init(
            payload: String, address: SocketAddress?, interfaces: [String], paaTrustStore: String?,
            acceptUntrustedDevice: Bool, name: String?, room: String?
        ) {
            self.payload = payload
            self.address = address
            self.interfaces = interfaces
            self.paaTrustStore = paaTrustStore
            self.acceptUntrustedDevice = acceptUntrustedDevice
            self.name = name
            self.room = room
        }
    }

    /// A device being shared: its node, what its window's code carries, and how messages name it.
    public struct SharedDevice: Codable, Sendable, Hashable {
        public let nodeID: UInt64
        public let vendorID: UInt16
        public let productID: UInt16
        /// Its structure: who may add devices there may share it.
        public let structureID: String
        /// "Desk lamp (391D788B9528D5FA-1)".
        public let label: String

        public init(nodeID: UInt64, vendorID: UInt16, productID: UInt16, structureID: String, label: String) {
            self.nodeID = nodeID
            self.vendorID = vendorID
            self.productID = productID
            self.structureID = structureID
            self.label = label
        }
    }

    /// One command to one cluster of one endpoint, its fields as TLV.
    public struct Invocation: Codable, Sendable, Hashable {
        public let nodeID: UInt64
        public let endpoint: UInt16
        public let cluster: UInt32
        public let command: UInt32
        /// The generated command's name, for messages.
        public let name: String
        public let fields: TLVElement
        /// Matter Core §8.7: a timed invoke, with this window in milliseconds.
        public let timedWindowMilliseconds: Int64?

        public init(
            nodeID: UInt64, endpoint: UInt16, cluster: UInt32, command: UInt32, name: String, fields: TLVElement,
            timedWindowMilliseconds: Int64?
        ) {
            self.nodeID = nodeID
            self.endpoint = endpoint
            self.cluster = cluster
            self.command = command
            self.name = name
            self.fields = fields
            self.timedWindowMilliseconds = timedWindowMilliseconds
        }
    }

    public struct AttributeWrite: Codable, Sendable, Hashable {
        public let nodeID: UInt64
        public let endpoint: UInt16
        public let cluster: UInt32
        public let attribute: UInt32
        /// The data model's name ("LevelControl.OnLevel"), for messages.
        public let name: String
        public let value: TLVElement
        /// Matter Core §8.7.2: a timed write, with this window in milliseconds.
        public let timedWindowMilliseconds: Int64?

        public init(
            nodeID: UInt64, endpoint: UInt16, cluster: UInt32, attribute: UInt32, name: String, value: TLVElement,
            timedWindowMilliseconds: Int64?
        ) {
            self.nodeID = nodeID
            self.endpoint = endpoint
            self.cluster = cluster
            self.attribute = attribute
            self.name = name
            self.value = value
            self.timedWindowMilliseconds = timedWindowMilliseconds
        }
    }

    /// The device a sharing request is about.
    public var sharedDevice: SharedDevice? {
        switch self {
        case .openCommissioningWindow(let device, _), .openBasicCommissioningWindow(let device, _),
            .revokeCommissioningWindow(let device), .commissioningWindowStatus(let device), .fabrics(let device),
            .removeFabric(let device, _):
            device
        default: nil
        }
    }

    /// What the request is, for messages: "rename a device", "invoke On".
    public var summary: String {
        switch self {
        case .renameDevice: "rename a device"
        case .renameRoom: "rename a room"
        case .renameStructure: "rename a structure"
        case .createRoom: "create a room"
        case .deleteRoom: "delete a room"
        case .moveDevices: "move a device"
        case .follow: "follow a device"
        case .invoke(let invocation): "invoke \(invocation.name)"
        case .writeAttribute(let write): "write \(write.name)"
        case .interview: "interview a device"
        case .toggle: "invoke Toggle"
        case .status: "read the hub's status"
        case .nodeEndpoints: "read a node's endpoints"
        case .prepareCommissioning, .commission, .configureCommissioned, .completeCommissioning, .cancelCommissioning:
            "add a device"
        case .grantCommissioning, .revokeCommissioning, .checkCommissioningPermission: "grant permissions"
        case .decommission: "remove a device"
        case .commissionDevice: "commission a device"
        case .ping: "ping a device"
        case .openCommissioningWindow, .openBasicCommissioningWindow, .revokeCommissioningWindow,
            .commissioningWindowStatus, .fabrics, .removeFabric:
            "share a device"
        }
    }
}

/// The hub's answer to one `HubRequest`.
public enum HubReply: Codable, Sendable, Hashable {
    case done
    /// The name as the hub kept it (cut to 60 Unicode code points).
    case name(String)
    case room(RoomRecord)
    /// The invoked command's response: its command ID and fields; nil for a status-only answer.
    case invoked(command: UInt32?, fields: TLVElement?)
    /// The status the device gave the written attribute (Matter Core §8.10: 0 is SUCCESS).
    case written(status: UInt8)
    case status(HubStatus)
    case names([String])
    case endpoints([EndpointDeviceType], tags: [EndpointSemanticTag])
    case toggled(ToggleOutcome)
    /// Why the node did not leave the hub's fabric when it was removed, when it did not.
    case decommissioned(fabricRemovalFailure: String?)
    case commissioned(CommissionedDevice)
    case pinged(address: SocketAddress, vendorName: String, sessionSeconds: Double, roundTripSeconds: [Double])
    case window(CommissioningWindow)
    case closesAt(Date)
    case windowStatus(CommissioningWindowStatus)
    case fabrics([DeviceFabric])
}

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
}

extension Duration {
    /// As the socket carries a duration: seconds, a JSON number.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
