import HomeHub
import MatterDataModel
import MatterInteraction
import MatterTLV

/// What a generated trait reads and sends through: one cluster on one endpoint, as the hub's cache last held it.
public struct TraitContext: Sendable, Hashable {
    let snapshot: EndpointSnapshot
    let cluster: ClusterID

    public var endpoint: UInt16 { snapshot.endpoint }
    public var sourceConnectivity: SourceConnectivity { snapshot.connectivity }

    /// The cached value of one of the cluster's attributes, as the generated `attributes` properties read it: nil
    /// when the device has not reported it. A value that does not decode as the attribute's type is nil here too, and
    /// is logged once; `read(_:)` says what was wrong with it.
    public func value<Value>(_ attribute: AttributeDefinition<Value>) -> Value? {
        do {
            return try read(attribute)
        } catch {
            MalformedValueLog.shared.report(error)
            return nil
        }
    }

    /// The cached value of one of the cluster's attributes: nil when the device has not reported it; a `dataLoss`
    /// error, naming the path and what was wrong, when what it reported does not decode as the attribute's type.
    public func read<Value>(_ attribute: AttributeDefinition<Value>) throws(HomeError) -> Value? {
        let path = ConcreteAttributePath(
            endpoint: snapshot.endpoint, cluster: attribute.cluster.rawValue, attribute: attribute.id.rawValue)
        guard let element = snapshot.value(path) else { return nil }
        do {
            return try Value(tlv: element)
        } catch {
            let cluster = ClusterRegistry.standard.describe(cluster: attribute.cluster)
            throw HomeError(
                .dataLoss,
                "node \(HomeContext.nodeDeviceID(snapshot.nodeID)) endpoint \(snapshot.endpoint) \(cluster) "
                    + "\(attribute.name): the reported value does not decode as its type: \(error)")
        }
    }

    /// Whether the cluster's cached AcceptedCommandList holds the command (false when the device has not reported it).
    public func supports<Command: ClusterCommand>(_ command: Command.Type) -> Bool {
        value(
            AttributeDefinition<[CommandID]>(
                cluster: cluster, id: Self.acceptedCommandList, name: "AcceptedCommandList"))?
            .contains(Command.id) ?? false
    }

    /// Sends a command the device answers with a status only; a refusal is a `HomeError`.
    public func invoke<Command: ClusterCommand>(_ command: Command) async throws(HomeError)
    where Command.Response == DefaultSuccess {
        let connection = try await liveConnection()
        do {
            try await connection.invoke(command, endpoint: snapshot.endpoint)
        } catch {
            throw HomeError(error, command: Command.name)
        }
    }

    /// Sends a command the device answers with a response command; a refusal is a `HomeError`.
    public func invoke<Command: ClusterCommand>(_ command: Command) async throws(HomeError) -> Command.Response
    where Command.Response: ClusterCommandResponse {
        let connection = try await liveConnection()
        do {
            return try await connection.invoke(command, endpoint: snapshot.endpoint)
        } catch {
            throw HomeError(error, command: Command.name)
        }
    }

    private func liveConnection() async throws(HomeError) -> NodeConnection {
        guard let live = snapshot.live else {
            throw HomeError(.failedPrecondition, "this trait was not read from a home: it cannot send commands")
        }
        let connection = try await live.connection(to: snapshot.nodeID)
        // A trait kept from before its endpoint stopped serving the cluster (a bridge changed) is refused here,
        // before anything is sent, from the node's live Descriptor.
        let serverList = DescriptorCluster.Attributes.serverList
        if let served = try? await connection.cache.value(serverList, endpoint: snapshot.endpoint),
            !served.contains(cluster)
        {
            let names = served.map { ClusterRegistry.standard.describe(cluster: $0) }.joined(separator: ", ")
            throw HomeError(
                .failedPrecondition,
                "endpoint \(snapshot.endpoint) has no \(ClusterRegistry.standard.describe(cluster: cluster)) "
                    + "(its clusters: \(names))")
        }
        return connection
    }

    // Matter Core §7.13 Global Elements: AcceptedCommandList.
    private static let acceptedCommandList: AttributeID = 0xFFF9
}
