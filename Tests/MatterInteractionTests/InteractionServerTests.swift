import MatterMessaging
import MatterTLV
import Testing

@testable import MatterInteraction

/// The engine against our own client transactions, each side's output fed to the other in memory, and the
/// engine's answers to messages out of place.
@Suite struct InteractionServerTests {
    typealias F = ServerFixture

    /// Runs one client transaction on one exchange against the server until neither has more to send.
    static func converse<Result>(
        _ server: inout InteractionServer<ToyDataModel>, start: InteractionAction<Result>,
        exchange: ExchangeHandle = F.exchange(1), now: Instant = .zero,
        client: (UInt8, [UInt8]) -> [InteractionAction<Result>]
    ) -> (outcome: InteractionAction<Result>?, served: [InteractionModelOpcode], closed: Bool) {
        var clientActions = [start]
        var served: [InteractionModelOpcode] = []
        var closed = false
        var outcome: InteractionAction<Result>?
        while !clientActions.isEmpty {
            var toServer: [(InteractionModelOpcode, [UInt8])] = []
            for action in clientActions {
                switch action {
                case .send(let opcode, let payload): toServer.append((opcode, payload))
                case .completed, .failed: outcome = action
                }
            }
            clientActions = []
            for (opcode, payload) in toServer {
                for action in server.receive(opcode, payload, on: exchange, now: now) {
                    switch action {
                    case .send(let opcode, let payload, _):
                        served.append(opcode)
                        clientActions += client(opcode.rawValue, payload)
                    case .closeExchange:
                        closed = true
                    case .openExchangeAndSend:
                        break
                    }
                }
            }
        }
        return (outcome, served, closed)
    }

    @Test func readTransactionJoinsAThreeChunkRead() throws {
        var server = InteractionServer(provider: ToyDataModel())
        var read = ReadTransaction(
            request: ReadRequestMessage(attributeRequests: [F.path(2, ToyDataModel.userLabel, 0)]))
        let (outcome, served, closed) = Self.converse(&server, start: read.start()) {
            read.receive(opcode: $0, payload: $1)
        }
        guard case .completed(let report)? = outcome else {
            Issue.record("read ended with \(String(describing: outcome))"); return
        }
        #expect(served == [.reportData, .reportData, .reportData])
        #expect(closed)
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        #expect(
            cache.value(endpoint: 2, cluster: ToyDataModel.userLabel, attribute: 0)
                == TLVElement(.array(server.provider.labels)))
        #expect(cache.dataVersion(endpoint: 2, cluster: ToyDataModel.userLabel) == 165)
    }

    @Test func invokeTransactionGetsTheResponseCommand() {
        var server = InteractionServer(provider: ToyDataModel())
        var invoke = InvokeTransaction(
            command: CommandDataIB(
                path: CommandPathIB(endpoint: 1, cluster: 0x30, command: 0), fields: TLVElement(.structure([]))))
        let (outcome, _, closed) = Self.converse(&server, start: invoke.start()) {
            invoke.receive(opcode: $0, payload: $1)
        }
        let fields = TLVElement(
            .structure([TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .utf8(""))]))
        #expect(
            outcome
                == .completed(
                    .response(
                        CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 0x30, command: 1), fields: fields))))
        #expect(closed)
    }

    @Test func timedInvokeTransactionRunsTheTimedCommand() {
        var server = InteractionServer(provider: ToyDataModel())
        let lock = CommandPathIB(endpoint: 1, cluster: ToyDataModel.doorLock, command: 0)
        var invoke = InvokeTransaction(command: CommandDataIB(path: lock), timedWindow: .milliseconds(500))
        let (outcome, served, _) = Self.converse(&server, start: invoke.start()) {
            invoke.receive(opcode: $0, payload: $1)
        }
        #expect(served == [.statusResponse, .invokeResponse])
        #expect(outcome == .failed(.status(StatusIB(status: .failure, clusterStatus: 3), path: .command(lock))))
        #expect(server.provider.invoked == [lock])
    }

    @Test func untimedInvokeOfATimedCommandFailsWithNeedsTimedInteraction() {
        var server = InteractionServer(provider: ToyDataModel())
        let lock = CommandPathIB(endpoint: 1, cluster: ToyDataModel.doorLock, command: 0)
        var invoke = InvokeTransaction(command: CommandDataIB(path: lock))
        let (outcome, _, _) = Self.converse(&server, start: invoke.start()) { invoke.receive(opcode: $0, payload: $1) }
        #expect(outcome == .failed(.status(StatusIB(status: .needsTimedInteraction), path: .command(lock))))
        #expect(server.provider.invoked.isEmpty)
    }

    @Test func timedWriteTransactionWritesAndAnUnsupportedOneFails() {
        var server = InteractionServer(provider: ToyDataModel())
        let onLevel = AttributeDataIB(path: F.path(2, 8, 0x0011), data: TLVElement(.unsigned(33)))
        var write = WriteTransaction(writes: [onLevel], timedWindow: .seconds(1))
        let (outcome, _, _) = Self.converse(&server, start: write.start()) { write.receive(opcode: $0, payload: $1) }
        #expect(outcome == .completed([AttributeStatusIB(path: onLevel.path, status: StatusIB(status: .success))]))
        #expect(server.provider.onLevel == 33)
        let readOnly = AttributeDataIB(path: F.path(2, 8, 0x0000), data: TLVElement(.unsigned(1)))
        var refused = WriteTransaction(writes: [readOnly])
        let (failure, _, _) = Self.converse(&server, start: refused.start(), exchange: F.exchange(2)) {
            refused.receive(opcode: $0, payload: $1)
        }
        #expect(failure == .failed(.status(StatusIB(status: .unsupportedWrite), path: .attribute(readOnly.path))))
    }

    @Test func subscribeTransactionIsPrimedThenReceivesReportsAndKeepAlives() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let request = SubscribeRequestMessage(
            minIntervalFloor: 1, maxIntervalCeiling: 30, attributeRequests: [F.path(2, nil, nil)])
        var subscription = SubscribeTransaction(request: request)
        var pending = [subscription.start()]
        var established: (id: UInt32, maxInterval: Duration, priming: InteractionReport)?
        var primingChunks = 0
        while !pending.isEmpty {
            var next: [SubscriptionAction] = []
            for action in pending {
                switch action {
                case .send(let opcode, let payload):
                    for reply in server.receive(opcode, payload, on: F.exchange(1)) {
                        guard case .send(let opcode, let payload, _) = reply else { continue }
                        if opcode == .reportData { primingChunks += 1 }
                        next += subscription.receive(opcode: opcode.rawValue, payload: payload)
                    }
                case .established(let id, let maxInterval, let priming):
                    established = (id, maxInterval, priming)
                case .report, .failed:
                    Issue.record("unexpected \(action) while priming")
                }
            }
            pending = next
        }
        let (id, maxInterval, priming) = try #require(established)
        #expect(primingChunks >= 3)
        #expect(maxInterval == .seconds(30))
        var cache = AttributeCache()
        cache.apply(priming.attributeReports)
        #expect(cache.value(endpoint: 2, cluster: 8, attribute: 0) == TLVElement(.unsigned(10)))
        #expect(
            cache.value(endpoint: 2, cluster: ToyDataModel.userLabel, attribute: 0)
                == TLVElement(.array(server.provider.labels)))

        server.provider.currentLevel = 99
        let changed = server.attributesChanged(
            [ConcreteAttributePath(endpoint: 2, cluster: 8, attribute: 0)], now: F.at(seconds: 2))
        let reportExchange = F.exchange(77, role: .initiator)
        let report = try Self.deliver(
            changed, to: &subscription, server: &server, on: reportExchange, now: F.at(seconds: 2))
        #expect(
            report
                == InteractionReport(attributeReports: [
                    .data(AttributeDataIB(dataVersion: 108, path: F.path(2, 8, 0), data: TLVElement(.unsigned(99))))
                ]))
        #expect(subscription.subscriptionID == id)

        let keepAlive = try Self.deliver(
            server.tick(now: F.at(seconds: 31)), to: &subscription, server: &server,
            on: F.exchange(78, role: .initiator),
            now: F.at(seconds: 31))
        #expect(keepAlive == InteractionReport())
        #expect(server.subscriptionIDs == [id])
    }

    /// Carries one subscription report from the server to the client and the client's acknowledgement back;
    /// returns the report the client delivered.
    static func deliver(
        _ actions: [ServerAction], to subscription: inout SubscribeTransaction,
        server: inout InteractionServer<ToyDataModel>,
        on exchange: ExchangeHandle, now: Instant
    ) throws -> InteractionReport? {
        guard case .openExchangeAndSend(_, let opcode, let payload, let id)? = actions.first else { return nil }
        server.reportExchangeOpened(exchange, subscriptionID: id)
        var delivered: InteractionReport?
        var inbound = [(opcode, payload)]
        while let (opcode, payload) = inbound.popLast() {
            for action in subscription.receive(opcode: opcode.rawValue, payload: payload) {
                switch action {
                case .send(let opcode, let payload):
                    let replies = server.receive(opcode, payload, on: exchange, now: now)
                    inbound += replies.compactMap {
                        if case .send(let opcode, let payload, _) = $0 { (opcode, payload) } else { nil }
                    }
                    #expect(replies.last == .closeExchange(exchange) || !inbound.isEmpty)
                case .report(let report):
                    delivered = report
                case .established, .failed:
                    Issue.record("unexpected \(action) for a report")
                }
            }
        }
        return delivered
    }

    // MARK: Real controllers' requests

    @Test func iPhoneReadIsAnsweredPathByPath() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let request = try ReadRequestMessage(payload: CapturedMessages.appleReadRequest)
        let actions = server.receive(.readRequest, CapturedMessages.appleReadRequest, on: F.exchange(1))
        let report = try #require(only(try F.reports(actions)))
        // The toy has no endpoint 0: each concrete path gets UNSUPPORTED_ENDPOINT, the wildcard nothing.
        let concrete = request.attributeRequests.filter { $0.concrete != nil }
        #expect(concrete.count == 8)
        #expect(
            report.attributeReports
                == concrete.map { .status(AttributeStatusIB(path: $0, status: StatusIB(status: .unsupportedEndpoint))) }
        )
        #expect(report.suppressResponse)
    }

    @Test func iPhoneArmFailSafeAndRsMatterInvokeGetCommandStatuses() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let arm = server.receive(.invokeRequest, CapturedMessages.appleArmFailSafe, on: F.exchange(1))
        let armResponse = try InvokeResponseMessage(payload: try #require(F.sent(arm).first?.1))
        #expect(
            armResponse.invokeResponses == [
                .status(
                    CommandStatusIB(
                        path: CommandPathIB(endpoint: 0, cluster: 0x30, command: 0),
                        status: StatusIB(status: .unsupportedEndpoint)))
            ])
        let rs = server.receive(.invokeRequest, CapturedMessages.rsMatterInvoke, on: F.exchange(2))
        let rsResponse = try InvokeResponseMessage(payload: try #require(F.sent(rs).first?.1))
        #expect(
            rsResponse.invokeResponses == [
                .status(
                    CommandStatusIB(
                        path: CommandPathIB(endpoint: 0, cluster: 49, command: 12),
                        status: StatusIB(status: .unsupportedEndpoint)))
            ])
    }

    // MARK: Messages out of place

    @Test(arguments: [
        InteractionModelOpcode.statusResponse, .reportData, .subscribeResponse, .writeResponse, .invokeResponse,
    ])
    func responseOpcodeOpeningAnExchangeIsAnInvalidAction(opcode: InteractionModelOpcode) throws {
        var server = InteractionServer(provider: ToyDataModel())
        let actions = server.receive(opcode, StatusResponseMessage(status: .success).encoded(), on: F.exchange(1))
        #expect(try F.status(actions) == .invalidAction)
        #expect(F.closes(actions, F.exchange(1)))
    }

    @Test func unknownOpcodeIsAnInvalidAction() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let actions = server.handle(opcode: 0x42, payload: [], on: F.exchange(1), context: F.admin, now: .zero)
        #expect(try F.status(actions) == .invalidAction)
    }

    @Test func unknownOpcodeAfterATimedRequestClosesItsWindow() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        _ = server.receive(.timedRequest, TimedRequestMessage(timeout: 1000).encoded(), on: exchange)
        _ = server.handle(opcode: 0x42, payload: [], on: exchange, context: F.admin, now: .zero)
        #expect(server.nextDeadline == nil)
        let lock = InvokeRequestMessage(
            timedRequest: true,
            invokeRequests: [CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 0x101, command: 0))])
        #expect(try F.status(server.receive(.invokeRequest, lock.encoded(), on: exchange)) == .timedRequestMismatch)
    }

    @Test func requestInsteadOfAPrimingAcknowledgementEndsTheSubscription() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        let request = SubscribeRequestMessage(
            minIntervalFloor: 0, maxIntervalCeiling: 60, attributeRequests: [F.path(1, 6, 0)])
        _ = server.receive(.subscribeRequest, request.encoded(), on: exchange)
        #expect(server.subscriptionIDs == [1])
        let actions = server.receive(
            .readRequest, ReadRequestMessage(attributeRequests: [F.path(1, 6, 0)]).encoded(), on: exchange)
        #expect(try F.status(actions) == .invalidAction)
        #expect(server.subscriptionIDs.isEmpty)
        #expect(server.nextDeadline == nil)
    }

    @Test func readAfterATimedRequestIsAnInvalidAction() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        _ = server.receive(.timedRequest, TimedRequestMessage(timeout: 100).encoded(), on: exchange)
        let actions = server.receive(
            .readRequest, ReadRequestMessage(attributeRequests: [F.path(1, 6, 0)]).encoded(), on: exchange)
        #expect(try F.status(actions) == .invalidAction)
    }
}
