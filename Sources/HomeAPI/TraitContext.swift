import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction
import MatterNode
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
                "node \(HubEngine.nodeDeviceID(snapshot.nodeID)) endpoint \(snapshot.endpoint) \(cluster) "
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
        let (responseID, _) = try await send(command)
        if let responseID {
            throw HomeError(
                .internal, "\(Command.name): the device answered with command \(responseID) where a status was due")
        }
    }

    /// Sends a command the device answers with a response command; a refusal is a `HomeError`.
    public func invoke<Command: ClusterCommand>(_ command: Command) async throws(HomeError) -> Command.Response
    where Command.Response: ClusterCommandResponse {
        let (responseID, fields) = try await send(command)
        guard responseID == Command.Response.id.rawValue else {
            throw HomeError(
                .internal,
                "\(Command.name): the device answered with \(responseID.map { "command \($0)" } ?? "a status only") "
                    + "where \(Command.Response.name) was due")
        }
        do {
            return try Command.Response(tlv: fields ?? TLVElement(.structure([])))
        } catch {
            throw HomeError(.dataLoss, "\(Command.Response.name) does not decode: \(error)")
        }
    }

    /// Sends the command wherever the hub is; returns the response command's ID and fields.
    private func send<Command: ClusterCommand>(_ command: Command) async throws(HomeError) -> (UInt32?, TLVElement?) {
        guard let context = snapshot.context else {
            throw HomeError(.failedPrecondition, "this trait was not read from a home: it cannot send commands")
        }
        let window = Command.requiresTimedInvoke ? NodeTiming.timedInvokeWindow : nil
        let response = try await context.perform(
            InvokeCommand(
                nodeID: snapshot.nodeID, endpoint: snapshot.endpoint, cluster: Command.Cluster.id.rawValue,
                command: Command.id.rawValue, name: Command.name, fields: TLVElement(command.tlvValue()),
                timedWindowMilliseconds: window.map {
                    $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000
                }))
        return (response.command, response.fields)
    }

    // Matter Core §7.13 Global Elements: AcceptedCommandList.
    private static let acceptedCommandList: AttributeID = 0xFFF9
}
