import MatterDataModel
import MatterInteraction
import MatterTLV

extension InteractionClient {
    /// Invokes a generated command and decodes its response command:
    /// `try await client.invoke(GeneralCommissioningCluster.Commands.ArmFailSafe(…), endpoint: 0)`.
    /// A command that must be timed is preceded by a TimedRequest of `NodeTiming.timedInvokeWindow` unless the caller
    /// gives a window.
    public func invoke<Command: ClusterCommand>(
        _ command: Command, endpoint: UInt16, timedWindow: Duration? = nil,
        timeout: Duration = NodeTiming.interactionResponse
    ) async throws(InteractionClientError) -> Command.Response where Command.Response: ClusterCommandResponse {
        let operation = Self.operation(Command.self, endpoint: endpoint)
        let response = try await send(
            command, endpoint: endpoint, timedWindow: timedWindow, timeout: timeout, operation: operation)
        guard let response, response.path.command == Command.Response.id.rawValue else {
            throw InteractionClientError(
                operation: operation,
                reason: .unexpectedResponse(
                    expected: Command.Response.id.rawValue, received: response?.path.command))
        }
        do {
            return try Command.Response(tlv: response.fields ?? TLVElement(.structure([])))
        } catch {
            throw InteractionClientError(operation: operation, reason: .malformedResponse(error))
        }
    }

    /// Invokes a generated command the device answers with a status only.
    public func invoke<Command: ClusterCommand>(
        _ command: Command, endpoint: UInt16, timedWindow: Duration? = nil,
        timeout: Duration = NodeTiming.interactionResponse
    ) async throws(InteractionClientError) -> DefaultSuccess where Command.Response == DefaultSuccess {
        let operation = Self.operation(Command.self, endpoint: endpoint)
        if let response = try await send(
            command, endpoint: endpoint, timedWindow: timedWindow, timeout: timeout, operation: operation)
        {
            throw InteractionClientError(
                operation: operation, reason: .unexpectedResponse(expected: nil, received: response.path.command))
        }
        return DefaultSuccess()
    }

    private func send<Command: ClusterCommand>(
        _ command: Command, endpoint: UInt16, timedWindow: Duration?, timeout: Duration,
        operation: String
    ) async throws(InteractionClientError) -> CommandDataIB? {
        let path = CommandPathIB(endpoint: endpoint, cluster: Command.Cluster.id.rawValue, command: Command.id.rawValue)
        let window = timedWindow ?? (Command.requiresTimedInvoke ? NodeTiming.timedInvokeWindow : nil)
        return try await invoke(
            path, fields: command.tlvValue(), timedWindow: window, timeout: timeout, operation: operation)
    }

    /// "invoke GeneralCommissioning.ArmFailSafe on endpoint 0": the registry's names of the cluster and command.
    private static func operation<Command: ClusterCommand>(_ command: Command.Type, endpoint: UInt16) -> String {
        "invoke \(Command.Cluster.name).\(Command.name) on endpoint \(endpoint)"
    }
}
