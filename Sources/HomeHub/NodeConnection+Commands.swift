import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

/// Commands and cached reads through the live connection: its session is reused (a command needs it, not the
/// subscription), its cache answers.
extension NodeConnection {
    /// What `toggle` sent.
    public enum ToggleCommand: Hashable, Sendable {
        case toggle, on, off
    }

    /// Invokes a generated command that has a response command on `endpoint`, once the node's session is up.
    public func invoke<Command: ClusterCommand>(
        _ command: Command, endpoint: UInt16
    ) async throws(NodeConnectionError) -> Command.Response
    where Command.Response: ClusterCommandResponse {
        let client = try await sessionClient()
        do {
            return try await client.invoke(command, endpoint: endpoint, timeout: settings.responseTimeout)
        } catch {
            throw .interaction(error)
        }
    }

    /// Invokes a generated command the node answers with a status only on `endpoint`, once the node's session is up.
    public func invoke<Command: ClusterCommand>(_ command: Command, endpoint: UInt16) async throws(NodeConnectionError)
    where Command.Response == DefaultSuccess {
        let client = try await sessionClient()
        do {
            _ = try await client.invoke(command, endpoint: endpoint, timeout: settings.responseTimeout)
        } catch {
            throw .interaction(error)
        }
    }

    /// Invokes a command given as its path and TLV fields (a command another process encoded), once the node's
    /// session is up; returns the response command, or nil when the node answered with a status only.
    public func invoke(
        endpoint: UInt16, cluster: UInt32, command: UInt32, fields: TLVValue, timedWindow: Duration?
    ) async throws(NodeConnectionError) -> CommandDataIB? {
        let client = try await sessionClient()
        do {
            return try await client.invoke(
                endpoint: endpoint, cluster: cluster, command: command, fields: fields, timedWindow: timedWindow,
                timeout: settings.responseTimeout)
        } catch {
            throw .interaction(error)
        }
    }

    /// Writes one attribute once the node's session is up; returns the status the device gave it (a refusal, such
    /// as CONSTRAINT_ERROR, is the answer, not a failure; only an interaction that did not complete throws).
    public func write(
        _ value: TLVElement, endpoint: UInt16, cluster: UInt32, attribute: UInt32, timedWindow: Duration?
    ) async throws(NodeConnectionError) -> InteractionModelStatus {
        let client = try await sessionClient()
        let path = AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute)
        do {
            let statuses = try await client.write(
                [AttributeDataIB(path: path, data: value)], timedWindow: timedWindow,
                timeout: settings.responseTimeout)
            return statuses.first?.status.status ?? .success
        } catch {
            if let status = error.status { return status }
            throw .interaction(error)
        }
    }

    /// Appends one item to a list attribute (§10.6.4.3: a list-item write with a null list index), leaving the items
    /// there as they are; returns the status the device gave it.
    public func append(
        _ item: TLVElement, endpoint: UInt16, cluster: UInt32, attribute: UInt32
    ) async throws(NodeConnectionError) -> InteractionModelStatus {
        let client = try await sessionClient()
        let path = AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute, listIndex: .append)
        do {
            let statuses = try await client.write(
                [AttributeDataIB(path: path, data: item)], timedWindow: nil, timeout: settings.responseTimeout)
            return statuses.first?.status.status ?? .success
        } catch {
            if let status = error.status { return status }
            throw .interaction(error)
        }
    }

    /// Reads `paths` from the node now (not from the cache), once the node's session is up: for what the subscription
    /// does not carry, such as a list read across fabrics (`isFabricFiltered` false).
    public func read(
        _ paths: [AttributePathIB], isFabricFiltered: Bool
    ) async throws(NodeConnectionError) -> InteractionReport {
        let client = try await sessionClient()
        do {
            return try await client.read(paths, isFabricFiltered: isFabricFiltered, timeout: settings.responseTimeout)
        } catch {
            throw .interaction(error)
        }
    }

    /// Reads `paths` from the node now and keeps the values as a report of its subscription would be kept: into the
    /// cache, each change published. For what is wanted fresher than the subscription's max interval brings it.
    public func refresh(_ paths: [AttributePathIB]) async throws(NodeConnectionError) {
        apply(try await read(paths, isFabricFiltered: true), publishingEvents: false)
    }

    /// Whether the cluster on `endpoint` accepts the command, from its cached AcceptedCommandList; nil when the
    /// node has not reported that list (or it does not decode).
    public func supports<Command: ClusterCommand>(_ command: Command.Type, endpoint: UInt16) -> Bool? {
        let acceptedCommands = AttributeDefinition<[CommandID]>(
            cluster: Command.Cluster.id, id: 0xFFF9, name: "AcceptedCommandList")
        guard let accepted = try? cache.value(acceptedCommands, endpoint: endpoint) else { return nil }
        return accepted.contains(Command.id)
    }

    /// The cached value of `attribute` on `endpoint`; nil when the node has not reported it.
    public func value<Value>(
        _ attribute: AttributeDefinition<Value>, endpoint: UInt16
    ) throws(NodeConnectionError) -> Value? {
        do {
            return try cache.value(attribute, endpoint: endpoint)
        } catch {
            throw .malformedAttribute(error)
        }
    }

    /// Toggles the OnOff cluster on `endpoint`: the Toggle command, unless the cached AcceptedCommandList lacks it
    /// or the node refuses it with UNSUPPORTED_COMMAND (CircuitMatter lists Toggle yet refuses it); then On or Off,
    /// the opposite of the OnOff value its subscription reports (waited for: a stored value may be stale). Returns
    /// what it sent last.
    @discardableResult
    public func toggle(endpoint: UInt16) async throws(NodeConnectionError) -> ToggleCommand {
        if supports(OnOffCluster.Commands.Toggle.self, endpoint: endpoint) != false {
            do {
                try await invoke(OnOffCluster.Commands.Toggle(), endpoint: endpoint)
                return .toggle
            } catch .interaction(let error) where error.status == .unsupportedCommand {
                // Fall back below.
            }
        }
        try await connected()
        let onOff = OnOffCluster.Attributes.onOff
        guard let isOn = try value(onOff, endpoint: endpoint) else {
            throw .missingAttribute(onOff.qualifiedName, endpoint: endpoint)
        }
        if isOn {
            try await invoke(OnOffCluster.Commands.Off(), endpoint: endpoint)
            return .off
        }
        try await invoke(OnOffCluster.Commands.On(), endpoint: endpoint)
        return .on
    }
}
