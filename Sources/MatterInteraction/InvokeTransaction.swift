// Matter Core §8.8 Invoke Interaction, client side, for one command:
//   [TimedRequest → StatusResponse SUCCESS →] InvokeRequest → InvokeResponse (command response or status).
// One command per request: CircuitMatter, among others, answers only one. CircuitMatter also never answers a
// TimedRequest; the exchange's response timeout ends such an invoke.
public struct InvokeTransaction: Sendable {
    /// What a successful invoke returns.
    public enum Outcome: Hashable, Sendable {
        /// The command's response command, with its fields.
        case response(CommandDataIB)
        /// The command succeeded and has no response fields.
        case success
    }

    private enum State: Sendable {
        case idle
        case awaitingTimedStatus
        case awaitingInvokeResponse
        case finished
    }

    public let command: CommandDataIB
    /// Set for a timed invoke: how long the TimedRequest keeps the action window open.
    public let timedWindow: Duration?
    private var state = State.idle

    public init(command: CommandDataIB, timedWindow: Duration? = nil) {
        self.command = command
        self.timedWindow = timedWindow
    }

    /// The first message: a TimedRequest for a timed invoke, else the InvokeRequest.
    public mutating func start() -> InteractionAction<Outcome> {
        if let timedWindow {
            state = .awaitingTimedStatus
            return .send(.timedRequest, TimedRequestMessage(window: timedWindow).encoded())
        }
        state = .awaitingInvokeResponse
        return invokeRequest(timed: false)
    }

    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [InteractionAction<Outcome>] {
        let path = InteractionPath.command(command.path)
        switch (state, InteractionModelOpcode(rawValue: opcode)) {
        case (.awaitingTimedStatus, .statusResponse):
            do {
                let response = try StatusResponseMessage(payload: payload)
                guard response.status == .success else {
                    state = .finished
                    return [.failed(.status(StatusIB(status: response.status), path: path))]
                }
                state = .awaitingInvokeResponse
                return [invokeRequest(timed: true)]
            } catch {
                state = .finished
                return [.failed(error)]
            }
        case (.awaitingInvokeResponse, .invokeResponse):
            return handleInvokeResponse(payload)
        case (.awaitingInvokeResponse, .statusResponse):
            state = .finished
            return [.failed(.fromStatusResponse(payload, expecting: "InvokeResponse", path: path))]
        case (.awaitingTimedStatus, _):
            state = .finished
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "StatusResponse to TimedRequest"))]
        case (.awaitingInvokeResponse, _):
            state = .finished
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "InvokeResponse"))]
        case (.idle, _), (.finished, _):
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "nothing (no invoke under way)"))]
        }
    }

    private func invokeRequest(timed: Bool) -> InteractionAction<Outcome> {
        .send(.invokeRequest, InvokeRequestMessage(timedRequest: timed, invokeRequests: [command]).encoded())
    }

    private mutating func handleInvokeResponse(_ payload: [UInt8]) -> [InteractionAction<Outcome>] {
        let message: InvokeResponseMessage
        do {
            message = try InvokeResponseMessage(payload: payload)
        } catch {
            state = .finished
            return [.failed(error)]
        }
        // A response names our endpoint and cluster; a response command carries its own command ID.
        let answer = message.invokeResponses.first { response in
            switch response {
            case .command(let data):
                data.path.endpoint == command.path.endpoint && data.path.cluster == command.path.cluster
            case .status(let status): status.path == command.path
            }
        }
        // Chunked responses (§10.7.10 MoreChunkedMessages) are acknowledged until ours arrives.
        let acknowledgement: [InteractionAction<Outcome>] = message.moreChunkedMessages ? [.status(.success)] : []
        guard let answer else {
            if message.moreChunkedMessages { return acknowledgement }
            state = .finished
            return [.failed(.missingCommandResponse(command.path))]
        }
        state = .finished
        switch answer {
        case .command(let data):
            return acknowledgement + [.completed(.response(data))]
        case .status(let status) where status.status.status == .success:
            return acknowledgement + [.completed(.success)]
        case .status(let status):
            return acknowledgement + [.failed(.status(status.status, path: .command(command.path)))]
        }
    }
}
