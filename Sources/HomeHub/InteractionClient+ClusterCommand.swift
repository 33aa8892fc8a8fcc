import MatterInteraction
import MatterTLV

extension InteractionClient {
    /// Invokes a typed command and decodes its response: `try await client.invoke(ArmFailSafe(…), endpoint: 0)`.
    public func invoke<Command: ClusterCommand>(_ command: Command, endpoint: UInt16, timedWindow: Duration? = nil,
                                                timeout: Duration = HubTiming.interactionResponse) async throws(InteractionClientError) -> Command.Response {
        let operation = "invoke \(Command.name) on endpoint \(endpoint)"
        let path = CommandPathIB(endpoint: endpoint, cluster: Command.clusterID, command: Command.commandID)
        let response = try await invoke(path, fields: command.tlvValue(), timedWindow: timedWindow, timeout: timeout, operation: operation)
        guard response?.path.command == Command.Response.commandID else {
            throw InteractionClientError(operation: operation, reason: .unexpectedResponse(
                expected: Command.Response.commandID, received: response?.path.command))
        }
        do {
            return try Command.Response(tlv: response?.fields ?? TLVElement(.structure([])))
        } catch {
            throw InteractionClientError(operation: operation, reason: .malformedResponse(error))
        }
    }
}
