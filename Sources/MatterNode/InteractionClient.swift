import MatterInteraction
import MatterMessaging
import MatterPlatform
import MatterTLV

/// The Interaction Model client of one secure session: carries MatterInteraction's read, write, invoke and
/// subscribe transactions over the transport, and routes the reports of its subscriptions, which arrive on
/// exchanges the device opens, by subscription ID.
///
/// Reports reach it through an `InteractionRouter`: pass the transport's shared router when several clients (one
/// per node) use one transport; without one, the client makes its own, and must then be the transport's only client.
public actor InteractionClient {
    public let transport: MatterTransport
    public let session: SessionHandle
    /// The device's MRP intervals: how long its retransmissions of one report may take adds to the liveness
    /// deadline of a subscription.
    public let peerParameters: MRPParameters
    var subscriptions: [UInt32: ActiveSubscription] = [:]
    private let router: InteractionRouter
    /// This client's registration with the router, once it routes.
    private var routing: UInt64?

    public init(
        transport: MatterTransport, session: SessionHandle, peerParameters: MRPParameters = .default,
        router: InteractionRouter? = nil
    ) {
        self.transport = transport
        self.session = session
        self.peerParameters = peerParameters
        self.router = router ?? InteractionRouter(transport: transport)
    }

    // MARK: Read, write, invoke

    /// Reads attributes (and their statuses); a multi-chunk report is joined. CircuitMatter cannot chunk a read:
    /// `NodeInterview` primes a subscription instead.
    public func read(
        _ paths: [AttributePathIB], isFabricFiltered: Bool = true,
        timeout: Duration = NodeTiming.interactionResponse
    ) async throws(InteractionClientError) -> InteractionReport {
        let request = ReadRequestMessage(attributeRequests: paths, isFabricFiltered: isFabricFiltered)
        return try await run(
            ReadTransaction(request: request), operation: "read \(Self.describe(paths))", timeout: timeout)
    }

    /// Reads `paths` `count` times, one read after another, and times each on the transport's clock: a round trip is
    /// the protocol's, with no hop back to the caller between reads.
    public func timedReads(
        _ paths: [AttributePathIB], count: Int
    ) async throws(InteractionClientError) -> (report: InteractionReport, roundTrips: [Duration]) {
        var roundTrips: [Duration] = []
        roundTrips.reserveCapacity(count)
        var report = InteractionReport(attributeReports: [], eventReports: [])
        for _ in 0..<max(1, count) {
            let start = transport.clock.now
            report = try await read(paths)
            roundTrips.append(start.duration(to: transport.clock.now))
        }
        return (report, roundTrips)
    }

    /// Writes attributes; returns every path's status when all succeeded, else throws the first failure.
    public func write(
        _ writes: [AttributeDataIB], timedWindow: Duration? = nil,
        timeout: Duration = NodeTiming.interactionResponse
    ) async throws(InteractionClientError) -> [AttributeStatusIB] {
        let transaction = WriteTransaction(writes: writes, timedWindow: timedWindow)
        return try await run(transaction, operation: "write \(Self.describe(writes.map(\.path)))", timeout: timeout)
    }

    /// Invokes one command; returns the response command (with its fields), or nil for a plain SUCCESS.
    public func invoke(
        endpoint: UInt16, cluster: UInt32, command: UInt32, fields: TLVValue, timedWindow: Duration? = nil,
        timeout: Duration = NodeTiming.interactionResponse
    ) async throws(InteractionClientError) -> CommandDataIB? {
        let path = CommandPathIB(endpoint: endpoint, cluster: cluster, command: command)
        return try await invoke(
            path, fields: fields, timedWindow: timedWindow, timeout: timeout, operation: "invoke \(path)")
    }

    func invoke(
        _ path: CommandPathIB, fields: TLVValue, timedWindow: Duration?, timeout: Duration,
        operation: @autoclosure () -> String
    ) async throws(InteractionClientError) -> CommandDataIB? {
        let transaction = InvokeTransaction(
            command: CommandDataIB(path: path, fields: TLVElement(fields)), timedWindow: timedWindow)
        switch try await run(transaction, operation: operation(), timeout: timeout) {
        case .response(let data): return data
        case .success: return nil
        }
    }

    /// Carries one transaction on a new exchange until it completes or fails.
    private func run<T: InteractionTransaction>(
        _ transaction: T, operation: @autoclosure () -> String,
        timeout: Duration
    ) async throws(InteractionClientError) -> T.Result {
        // Every wait of a transaction ends on the loop, where the transport delivers: preferring the loop, the task
        // resumes there at once instead of through the global pool.
        try await withTaskExecutorPreference(EventLoopExecutor.preferred) {
            () async throws(InteractionClientError) -> T.Result in
            try await carry(transaction, operation: operation(), timeout: timeout)
        }
    }

    private func carry<T: InteractionTransaction>(
        _ transaction: T, operation: @autoclosure () -> String,
        timeout: Duration
    ) async throws(InteractionClientError) -> T.Result {
        // The operation is described only for a failure: a read's path text costs more than its encoding.
        var transaction = transaction
        let exchange: ExchangeHandle
        do {
            exchange = try await transport.openExchange(on: session)
        } catch {
            throw InteractionClientError(operation: operation(), reason: .exchange(error))
        }
        var pending = [transaction.start()]
        do throws(InteractionClientError.Reason) {
            while true {
                for action in pending {
                    switch action {
                    case .send(let opcode, let payload):
                        try await send(opcode, payload, on: exchange)
                    case .completed(let result):
                        await transport.close(exchange)
                        return result
                    case .failed(let error):
                        throw InteractionClientError.Reason.interaction(error)
                    }
                }
                let message = try await receive(on: exchange, timeout: timeout)
                pending = transaction.receive(opcode: message.opcode, payload: message.payload)
            }
        } catch {
            await transport.close(exchange)
            throw InteractionClientError(operation: operation(), reason: error)
        }
    }

    // MARK: Exchange plumbing

    func send(
        _ opcode: InteractionModelOpcode, _ payload: [UInt8], on exchange: ExchangeHandle
    ) async throws(InteractionClientError.Reason) {
        do {
            try await transport.send(
                ExchangeMessage(protocolID: .interactionModel, opcode: opcode.rawValue, payload: payload), on: exchange)
        } catch {
            throw .exchange(error)
        }
    }

    /// The next Interaction Model message on `exchange`; every failure as a reason.
    func receive(
        on exchange: ExchangeHandle, timeout: Duration
    ) async throws(InteractionClientError.Reason) -> ExchangeMessage {
        let message: ExchangeMessage
        do {
            message = try await transport.receive(on: exchange, timeout: timeout)
        } catch let error as ExchangeError {
            throw .exchange(error)
        } catch is TransportError {
            throw .timedOut(timeout)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .transportShutDown
        }
        guard message.protocolID == .interactionModel else {
            throw .unexpectedProtocol(message.protocolID, opcode: message.opcode)
        }
        return message
    }

    // MARK: Routing incoming exchanges

    /// Has the router hand this client its session's incoming exchanges, once. The client is held weakly: a report
    /// that reaches a client already gone is refused, as one of an unknown subscription.
    func startRouting() {
        guard routing == nil else { return }
        let transport = transport
        routing = router.route(session) { [weak self] exchange, message in
            guard let self else { return await InteractionRouter.refuse(message, on: exchange, over: transport) }
            await self.handleIncoming(exchange, message)
        }
    }

    /// "endpoint 0, cluster 0x0028, attribute 0x0001" for one path, "3 paths" for more.
    private static func describe(_ paths: [AttributePathIB]) -> String {
        paths.count == 1 ? paths[0].description : "\(paths.count) paths"
    }

    deinit {
        if let routing { router.forget(session, registration: routing) }
    }
}
