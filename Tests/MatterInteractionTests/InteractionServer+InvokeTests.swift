import MatterMessaging
import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InteractionServerInvokeTests {
    typealias F = ServerFixture

    static func invoke(
        _ commands: [CommandDataIB], on server: inout InteractionServer<ToyDataModel>, timed: Bool = false,
        exchange: ExchangeHandle = F.exchange(1), context: AccessContext = F.admin,
        now: Instant = .zero
    ) -> [ServerAction] {
        server.receive(
            .invokeRequest, InvokeRequestMessage(timedRequest: timed, invokeRequests: commands).encoded(),
            on: exchange, context: context, now: now)
    }

    static func responses(_ actions: [ServerAction]) throws -> [InvokeResponseIB] {
        try InvokeResponseMessage(payload: try #require(F.sent(actions).first { $0.0 == .invokeResponse }?.1))
            .invokeResponses
    }

    static func command(
        _ endpoint: UInt16, _ cluster: UInt32, _ command: UInt32, fields: TLVValue? = nil, ref: UInt16? = nil
    ) -> CommandDataIB {
        CommandDataIB(
            path: CommandPathIB(endpoint: endpoint, cluster: cluster, command: command),
            fields: fields.map { TLVElement($0) }, commandRef: ref)
    }

    static func status(
        _ command: CommandDataIB, _ status: InteractionModelStatus, cluster: UInt8? = nil
    ) -> InvokeResponseIB {
        .status(
            CommandStatusIB(
                path: command.path, status: StatusIB(status: status, clusterStatus: cluster),
                commandRef: command.commandRef))
    }

    @Test func commandWithoutResponseSucceeds() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let on = Self.command(1, 6, 0x01)
        let actions = Self.invoke([on], on: &server)
        #expect(try Self.responses(actions) == [Self.status(on, .success)])
        #expect(server.provider.onOffValue)
        #expect(F.closes(actions, F.exchange(1)))
    }

    @Test func commandWithResponseReturnsItsFields() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let arm = Self.command(1, 0x30, 0x00, fields: .structure([]))
        let response = try #require(only(try Self.responses(Self.invoke([arm], on: &server))))
        #expect(
            response
                == .command(
                    CommandDataIB(
                        path: CommandPathIB(endpoint: 1, cluster: 0x30, command: 0x01),
                        fields: TLVElement(
                            .structure([
                                TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .utf8("")),
                            ])))))
    }

    @Test(arguments: [
        (command(9, 6, 0x01), InteractionModelStatus.unsupportedEndpoint),
        (command(2, 6, 0x01), .unsupportedCluster),
        (command(1, 6, 0x40), .unsupportedCommand),
        (command(2, 8, 0x00, fields: .structure([TLVElement(tag: .context(0), .unsigned(255))])), .constraintError),
        (command(2, 8, 0x00), .invalidCommand),
        (command(1, 0x101, 0x00), .needsTimedInteraction),
    ])
    func commandThatCannotRunGetsItsStatus(command: CommandDataIB, status: InteractionModelStatus) throws {
        var server = InteractionServer(provider: ToyDataModel())
        #expect(try Self.responses(Self.invoke([command], on: &server)) == [Self.status(command, status)])
        #expect(server.provider.currentLevel == 10)
    }

    @Test func clusterSpecificFailureCarriesItsClusterStatus() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let lock = Self.command(1, 0x101, 0x00)
        let exchange = F.exchange(1)
        _ = server.receive(.timedRequest, TimedRequestMessage(timeout: 1000).encoded(), on: exchange)
        #expect(
            try Self.responses(Self.invoke([lock], on: &server, timed: true, exchange: exchange)) == [
                Self.status(lock, .failure, cluster: 3)
            ])
    }

    @Test func administerCommandIsRefusedToAnOperator() throws {
        var provider = ToyDataModel()
        provider.grants = [F.admin.subject: .administer, F.viewer.subject: .operate]
        var server = InteractionServer(provider: provider)
        let arm = Self.command(1, 0x30, 0x00)
        #expect(
            try Self.responses(Self.invoke([arm], on: &server, context: F.viewer)) == [
                Self.status(arm, .unsupportedAccess)
            ])
        #expect(server.provider.invoked.isEmpty)
        let on = Self.command(1, 6, 0x01)
        #expect(try Self.responses(Self.invoke([on], on: &server, context: F.viewer)) == [Self.status(on, .success)])
        let commissioning = AccessContext(
            fabricIndex: 0, subject: AccessContext.paseSubject, authMode: .pase, isCommissioning: true)
        #expect(try Self.responses(Self.invoke([arm], on: &server, context: commissioning)).count == 1)
        #expect(server.provider.invoked.map(\.cluster) == [6, 0x30])
    }

    @Test func timedInvokeInsideItsWindowRuns() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(4)
        _ = server.receive(.timedRequest, TimedRequestMessage(timeout: 500).encoded(), on: exchange)
        let lock = Self.command(1, 0x101, 0x00)
        let actions = Self.invoke([lock], on: &server, timed: true, exchange: exchange, now: F.at(seconds: 0.5))
        #expect(server.provider.invoked == [lock.path])
        #expect(try Self.responses(actions).count == 1)
    }

    @Test func timedInvokeAfterItsWindowClosedTimesOut() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(4)
        _ = server.receive(.timedRequest, TimedRequestMessage(timeout: 500).encoded(), on: exchange)
        let actions = Self.invoke(
            [Self.command(1, 0x101, 0x00)], on: &server, timed: true, exchange: exchange, now: F.at(seconds: 0.501))
        #expect(try F.status(actions) == .timeout)
        #expect(F.closes(actions, exchange))
        #expect(server.provider.invoked.isEmpty)
    }

    @Test func timedFlagMustMatchTheTimedRequest() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(4)
        _ = server.receive(.timedRequest, TimedRequestMessage(timeout: 500).encoded(), on: exchange)
        #expect(
            try F.status(Self.invoke([Self.command(1, 6, 1)], on: &server, exchange: exchange)) == .timedRequestMismatch
        )
        #expect(
            try F.status(Self.invoke([Self.command(1, 6, 1)], on: &server, timed: true, exchange: F.exchange(5)))
                == .timedRequestMismatch)
        #expect(server.provider.invoked.isEmpty)
    }

    @Test func unansweredTimedRequestIsForgottenAfterItsWindowAndTheResponseTimeout() {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(4)
        _ = server.receive(.timedRequest, TimedRequestMessage(timeout: 500).encoded(), on: exchange)
        let deadline = F.at(seconds: 0.5) + InteractionTiming.serverResponseTimeout
        #expect(server.nextDeadline == deadline)
        #expect(server.tick(now: deadline) == [.closeExchange(exchange)])
    }

    @Test func severalCommandsAnswerEachByItsReference() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let on = Self.command(1, 6, 0x01, ref: 1)
        let level = Self.command(2, 8, 0x00, fields: .structure([TLVElement(tag: .context(0), .unsigned(90))]), ref: 2)
        let missing = Self.command(1, 6, 0x55, ref: 3)
        #expect(
            try Self.responses(Self.invoke([on, level, missing], on: &server))
                == [Self.status(on, .success), Self.status(level, .success), Self.status(missing, .unsupportedCommand)])
        #expect(server.provider.currentLevel == 90 && server.provider.onOffValue)
    }

    @Test(arguments: [
        [command(1, 6, 0x01), command(1, 6, 0x02)],
        [command(1, 6, 0x01, ref: 1), command(1, 6, 0x02, ref: 1)],
        [command(1, 6, 0x01, ref: 1), command(1, 6, 0x01, ref: 2)],
        [],
    ])
    func ambiguousOrEmptyInvokeIsAnInvalidAction(commands: [CommandDataIB]) throws {
        var server = InteractionServer(provider: ToyDataModel())
        #expect(try F.status(Self.invoke(commands, on: &server)) == .invalidAction)
        #expect(server.provider.invoked.isEmpty)
    }

    @Test func suppressedResponseSendsNothing() {
        var server = InteractionServer(provider: ToyDataModel())
        let request = InvokeRequestMessage(suppressResponse: true, invokeRequests: [Self.command(1, 6, 2)])
        #expect(server.receive(.invokeRequest, request.encoded(), on: F.exchange(1)) == [.closeExchange(F.exchange(1))])
        #expect(server.provider.onOffValue)
    }
}
