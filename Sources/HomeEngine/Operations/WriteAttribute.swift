import HubWire
import MatterDataModel
import MatterTLV

/// One attribute written (Matter Core §8.7); replies the status the device gave it (Matter Core §8.10: 0 is SUCCESS).
public struct WriteAttribute: HubOperation {
    public static let name = "writeAttribute"
    public let nodeID: UInt64
    public let endpoint: UInt16
    public let cluster: UInt32
    public let attribute: UInt32
    /// The data model's name ("LevelControl.OnLevel"), for messages.
    public let attributeName: String
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
        self.attributeName = name
        self.value = value
        self.timedWindowMilliseconds = timedWindowMilliseconds
    }

    /// Setting a device is every caller's; what changes who controls the node takes more (`AdministrativePaths`).
    public var access: HubAccess {
        let needed = AdministrativePaths.writing(
            cluster: ClusterID(rawValue: cluster), attribute: AttributeID(rawValue: attribute))
        return needed.isEmpty ? .member : .nodeRight(needed, nodeID: nodeID)
    }
    public var summary: String { "write \(attributeName)" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> UInt8 {
        let connection = try await scope.engine.live.connection(to: nodeID)
        do {
            let status = try await connection.write(
                value, endpoint: endpoint, cluster: cluster, attribute: attribute,
                timedWindow: timedWindowMilliseconds.map { .milliseconds($0) })
            return status.rawValue
        } catch {
            throw HomeError(error, command: attributeName)
        }
    }
}
