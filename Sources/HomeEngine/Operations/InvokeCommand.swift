import HubWire
import MatterDataModel
import MatterTLV

/// One command to one cluster of one endpoint, its fields as TLV; replies the device's response.
public struct InvokeCommand: HubOperation {
    public static let name = "invokeCommand"
    public let nodeID: UInt64
    public let endpoint: UInt16
    public let cluster: UInt32
    public let command: UInt32
    /// The generated command's name, for messages.
    public let commandName: String
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
        self.commandName = name
        self.fields = fields
        self.timedWindowMilliseconds = timedWindowMilliseconds
    }

    /// The device's answer: the response command's ID and fields, or neither for a status-only answer.
    public struct Response: Codable, Sendable, Hashable {
        public let command: UInt32?
        public let fields: TLVElement?
    }

    /// Controlling a device is every caller's; what changes who controls the node takes more (`AdministrativePaths`).
    public var access: HubAccess {
        let needed = AdministrativePaths.invoking(
            cluster: ClusterID(rawValue: cluster), command: CommandID(rawValue: command))
        return needed.isEmpty ? .member : .nodeRight(needed, nodeID: nodeID)
    }
    public var summary: String { "invoke \(commandName)" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Response {
        let connection = try await scope.engine.live.connection(to: nodeID)
        // A trait kept from before its endpoint stopped serving the cluster (a bridge changed) is refused here,
        // before anything is sent, from the node's live Descriptor.
        let serverList = DescriptorCluster.Attributes.serverList
        let cluster = ClusterID(rawValue: cluster)
        if let served = try? await connection.cache.value(serverList, endpoint: endpoint), !served.contains(cluster) {
            let names = served.map { ClusterRegistry.standard.describe(cluster: $0) }.joined(separator: ", ")
            throw HomeError(
                .failedPrecondition,
                "endpoint \(endpoint) has no \(ClusterRegistry.standard.describe(cluster: cluster)) "
                    + "(its clusters: \(names))")
        }
        do {
            let response = try await connection.invoke(
                endpoint: endpoint, cluster: cluster.rawValue, command: command, fields: fields.value,
                timedWindow: timedWindowMilliseconds.map { .milliseconds($0) })
            return Response(command: response?.path.command, fields: response?.fields)
        } catch {
            throw HomeError(error, command: commandName)
        }
    }
}
