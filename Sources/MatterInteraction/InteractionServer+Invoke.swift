import MatterMessaging
import MatterTLV

// Matter Core §8.8 Invoke Interaction, server side: InvokeRequest → InvokeResponse (chunked when large). Each
// command must exist (UNSUPPORTED_ENDPOINT, _CLUSTER, _COMMAND), be allowed (UNSUPPORTED_ACCESS) and be timed if it
// says so (NEEDS_TIMED_INTERACTION); several commands in one request need distinct paths and CommandRefs.
extension InteractionServer {
    mutating func invoke(
        _ payload: [UInt8], on exchange: ExchangeHandle, timedWindow: Instant?, context: AccessContext,
        now: Instant
    ) -> [ServerAction] {
        guard let request = try? InvokeRequestMessage(payload: payload), Self.isWellFormed(request.invokeRequests)
        else {
            return refuse(exchange, .invalidAction)
        }
        if let status = Self.timedStatus(flagged: request.timedRequest, window: timedWindow, now: now) {
            return refuse(exchange, status)
        }
        let responses = request.invokeRequests.map { invoke($0, timed: request.timedRequest, context: context) }
        if request.suppressResponse {
            return [.closeExchange(exchange)]
        }
        return sendSeries(
            .invokeResponse, MessageChunker.invokeResponses(responses), then: .close, on: exchange, now: now)
    }

    /// At least one command; with several, each has its own path and CommandRef.
    private static func isWellFormed(_ commands: [CommandDataIB]) -> Bool {
        guard commands.count > 1 else { return commands.count == 1 }
        let references = commands.compactMap { $0.commandRef }
        return references.count == commands.count && Set(references).count == commands.count
            && Set(commands.map { $0.path }).count == commands.count
    }

    private mutating func invoke(_ command: CommandDataIB, timed: Bool, context: AccessContext) -> InvokeResponseIB {
        let path = command.path
        let status = { (status: InteractionModelStatus, clusterStatus: UInt8?) -> InvokeResponseIB in
            .status(
                CommandStatusIB(
                    path: path, status: StatusIB(status: status, clusterStatus: clusterStatus),
                    commandRef: command.commandRef))
        }
        let cluster: ClusterDescription
        switch lookUp(endpoint: path.endpoint, cluster: path.cluster) {
        case .success(let found): cluster = found
        case .failure(let failure): return status(failure, nil)
        }
        guard let description = cluster.acceptedCommands.first(where: { $0.id == path.command }) else {
            return status(.unsupportedCommand, nil)
        }
        let clusterPath = ConcreteClusterPath(endpoint: path.endpoint, cluster: path.cluster)
        guard provider.isAllowed(AccessRequest(cluster: clusterPath, privilege: description.privilege), for: context)
        else {
            return status(.unsupportedAccess, nil)
        }
        guard timed || !description.requiresTimedInvoke else { return status(.needsTimedInteraction, nil) }
        switch provider.invoke(path, fields: command.fields, context: context) {
        case .response(let commandID, let fields):
            let responsePath = CommandPathIB(endpoint: path.endpoint, cluster: path.cluster, command: commandID)
            return .command(
                CommandDataIB(path: responsePath, fields: TLVElement(fields), commandRef: command.commandRef))
        case .status(let failure, let clusterStatus):
            return status(failure, clusterStatus)
        case .success:
            return status(.success, nil)
        }
    }
}
