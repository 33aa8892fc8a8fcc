import MatterMessaging
import MatterTLV

// Matter Core §8.7 Write Interaction, server side: WriteRequest (chunks) → WriteResponse per chunk. Each path is
// checked in turn: it must be concrete, exist (UNSUPPORTED_ENDPOINT, _CLUSTER, _ATTRIBUTE), be writable
// (UNSUPPORTED_WRITE), be allowed (UNSUPPORTED_ACCESS), be timed if the attribute says so (NEEDS_TIMED_INTERACTION)
// and name the current data version if it names one (DATA_VERSION_MISMATCH); then the provider decides. Access is
// decided once per path for the whole write, as connectedhomeip does (its ACL check cache): a list written as
// "replace with empty, then append each item" may be the ACL itself, and the items after the empty list must not be
// refused because the empty list took the writer's own entry away.
extension InteractionServer {
    mutating func write(
        _ payload: [UInt8], on exchange: ExchangeHandle, timedWindow: Instant?, context: AccessContext,
        now: Instant
    ) -> [ServerAction] {
        guard let request = try? WriteRequestMessage(payload: payload) else { return refuse(exchange, .invalidAction) }
        if let status = Self.timedStatus(flagged: request.timedRequest, window: timedWindow, now: now) {
            return refuse(exchange, status)
        }
        return writeChunk(request, on: exchange, allowed: [], context: context, now: now)
    }

    /// A later chunk of a chunked write: it must be timed as the first one was.
    mutating func continueWrite(
        _ payload: [UInt8], on exchange: ExchangeHandle, timed: Bool, allowed: Set<ConcreteAttributePath>,
        context: AccessContext, now: Instant
    ) -> [ServerAction] {
        guard let request = try? WriteRequestMessage(payload: payload) else { return refuse(exchange, .invalidAction) }
        guard request.timedRequest == timed else { return refuse(exchange, .timedRequestMismatch) }
        return writeChunk(request, on: exchange, allowed: allowed, context: context, now: now)
    }

    private mutating func writeChunk(
        _ request: WriteRequestMessage, on exchange: ExchangeHandle, allowed: Set<ConcreteAttributePath>,
        context: AccessContext, now: Instant
    ) -> [ServerAction] {
        var statuses: [AttributeStatusIB] = []
        var written: [ConcreteAttributePath] = []
        var allowed = allowed
        for data in request.writeRequests {
            let status = write(data, timed: request.timedRequest, allowed: &allowed, context: context)
            statuses.append(AttributeStatusIB(path: data.path, status: StatusIB(status: status)))
            if status == .success, let path = data.path.concrete {
                written.append(path)
            }
        }
        markChanged(written)
        let response = ServerAction.send(
            .writeResponse, WriteResponseMessage(writeResponses: statuses).encoded(), on: exchange)
        if request.moreChunkedMessages {
            exchanges[exchange] = .receivingWrite(
                timed: request.timedRequest, allowed: allowed, deadline: now + InteractionTiming.serverResponseTimeout)
            return [response]
        }
        return request.suppressResponse ? [.closeExchange(exchange)] : [response, .closeExchange(exchange)]
    }

    private mutating func write(
        _ data: AttributeDataIB, timed: Bool, allowed: inout Set<ConcreteAttributePath>, context: AccessContext
    ) -> InteractionModelStatus {
        guard let path = data.path.concrete else { return .invalidAction }
        let attribute: AttributeDescription
        switch lookUp(path) {
        case .success(let found): attribute = found.1
        case .failure(let status): return status
        }
        guard let privilege = attribute.writePrivilege else { return .unsupportedWrite }
        guard
            allowed.contains(path)
                || provider.isAllowed(AccessRequest(cluster: path.clusterPath, privilege: privilege), for: context)
        else {
            return .unsupportedAccess
        }
        allowed.insert(path)
        guard timed || !attribute.requiresTimedWrite else { return .needsTimedInteraction }
        switch data.path.listIndex {
        case nil:
            if let version = data.dataVersion, version != provider.dataVersion(of: path.clusterPath) {
                return .dataVersionMismatch
            }
            return provider.write(path, value: data.data, context: context)
        case .append:
            // §10.6.4.3: a chunked list write appends to what its first chunk replaced; the version was checked then.
            switch provider.read(path, isFabricFiltered: true, context: context) {
            case .success(.array(let items)):
                return provider.write(path, value: TLVElement(.array(items + [data.data])), context: context)
            case .success:
                return .invalidDataType
            case .failure(let status):
                return status
            }
        case .item:
            return .invalidAction
        }
    }
}
