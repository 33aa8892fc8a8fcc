import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InvokeTransactionTests {
    static let toggle = CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 6, command: 2))

    @Test func sendsExactlyWhatAnIPhoneSendsForTheSameCommand() {
        var invoke = InvokeTransaction(command: InvokeRequestMessageTests.armFailSafe)
        #expect(invoke.start() == .send(.invokeRequest, CapturedMessages.appleArmFailSafe))
    }

    @Test func aStatusOnlySuccessCompletes() {
        var invoke = InvokeTransaction(
            command: CommandDataIB(path: CommandPathIB(endpoint: 0, cluster: 0x3E, command: 0x0B)))
        _ = invoke.start()
        #expect(
            invoke.receive(opcode: 0x09, payload: CapturedMessages.addTrustedRootResponse) == [.completed(.success)])
    }

    @Test func aResponseCommandDeliversItsFields() {
        var invoke = InvokeTransaction(command: InvokeRequestMessageTests.armFailSafe)
        _ = invoke.start()
        // ArmFailSafeResponse (command 0x01): ErrorCode 0, DebugText "".
        let response = CommandDataIB(
            path: CommandPathIB(endpoint: 0, cluster: 0x30, command: 1),
            fields: TLVElement(
                .structure([TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .utf8(""))])))
        let actions = invoke.receive(
            opcode: 0x09, payload: InvokeResponseMessage(invokeResponses: [.command(response)]).encoded())
        #expect(actions == [.completed(.response(response))])
    }

    @Test func anErrorStatusNamesTheCommand() {
        var invoke = InvokeTransaction(command: Self.toggle)
        _ = invoke.start()
        let status = CommandStatusIB(path: Self.toggle.path, status: StatusIB(status: .unsupportedCommand))
        let actions = invoke.receive(
            opcode: 0x09, payload: InvokeResponseMessage(invokeResponses: [.status(status)]).encoded())
        #expect(actions == [.failed(.status(StatusIB(status: .unsupportedCommand), path: .command(Self.toggle.path)))])
        guard case .failed(let error)? = only(actions) else {
            Issue.record("not one failure: \(actions)")
            return
        }
        #expect(
            error.description
                == "cluster 0x0006 command 0x0002 on endpoint 1: UNSUPPORTED_COMMAND (the device does not implement this command)"
        )
    }

    @Test func anEmptyResponseIsAMissingCommandResponse() {
        var invoke = InvokeTransaction(command: Self.toggle)
        _ = invoke.start()
        #expect(
            invoke.receive(opcode: 0x09, payload: InvokeResponseMessage(invokeResponses: []).encoded())
                == [.failed(.missingCommandResponse(Self.toggle.path))])
    }

    @Test func aStatusResponseInsteadOfAnInvokeResponseFails() {
        var invoke = InvokeTransaction(command: Self.toggle)
        _ = invoke.start()
        #expect(
            invoke.receive(opcode: 0x01, payload: StatusResponseMessage(status: .needsTimedInteraction).encoded())
                == [.failed(.status(StatusIB(status: .needsTimedInteraction), path: .command(Self.toggle.path)))])
    }

    @Test func aTimedInvokeSendsTheTimedRequestFirst() throws {
        var invoke = InvokeTransaction(command: Self.toggle, timedWindow: .milliseconds(2500))
        #expect(invoke.start() == .send(.timedRequest, TimedRequestMessage(timeout: 2500).encoded()))
        let afterStatus = invoke.receive(opcode: 0x01, payload: StatusResponseMessage(status: .success).encoded())
        guard case .send(.invokeRequest, let payload)? = only(afterStatus) else {
            Issue.record("no InvokeRequest after the TimedRequest: \(afterStatus)")
            return
        }
        let request = try InvokeRequestMessage(payload: payload)
        #expect(request.timedRequest && request.invokeRequests == [Self.toggle])
        let success = CommandStatusIB(path: Self.toggle.path, status: StatusIB(status: .success))
        #expect(
            invoke.receive(opcode: 0x09, payload: InvokeResponseMessage(invokeResponses: [.status(success)]).encoded())
                == [.completed(.success)])
    }

    @Test func aRefusedTimedRequestFailsBeforeInvoking() {
        var invoke = InvokeTransaction(command: Self.toggle, timedWindow: .seconds(1))
        _ = invoke.start()
        #expect(
            invoke.receive(opcode: 0x01, payload: StatusResponseMessage(status: .busy).encoded())
                == [.failed(.status(StatusIB(status: .busy), path: .command(Self.toggle.path)))])
    }

    @Test(arguments: [(Duration.zero, UInt16(1)), (.milliseconds(1500), 1500), (.seconds(3600), 65535)])
    func theTimedWindowIsClampedToTheField(_ window: Duration, _ milliseconds: UInt16) {
        var invoke = InvokeTransaction(command: Self.toggle, timedWindow: window)
        #expect(invoke.start() == .send(.timedRequest, TimedRequestMessage(timeout: milliseconds).encoded()))
    }

    @Test func anInvokeResponseBeforeTheTimedStatusIsUnexpected() {
        var invoke = InvokeTransaction(command: Self.toggle, timedWindow: .seconds(1))
        _ = invoke.start()
        #expect(
            invoke.receive(opcode: 0x09, payload: []) == [
                .failed(.unexpectedMessage(opcode: 0x09, expecting: "StatusResponse to TimedRequest"))
            ])
    }
}
