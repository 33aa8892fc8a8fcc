// Matter Core §8.7 Write Interaction, client side, unchunked:
//   [TimedRequest → StatusResponse SUCCESS →] WriteRequest → WriteResponse (one status per written path).
public struct WriteTransaction: Sendable {
    private enum State: Sendable {
        case idle
        case awaitingTimedStatus
        case awaitingWriteResponse
        case finished
    }

    public let writes: [AttributeDataIB]
    /// Set for a timed write: how long the TimedRequest keeps the action window open.
    public let timedWindow: Duration?
    private var state = State.idle

    public init(writes: [AttributeDataIB], timedWindow: Duration? = nil) {
        self.writes = writes
        self.timedWindow = timedWindow
    }

    /// The first message: a TimedRequest for a timed write, else the WriteRequest.
    public mutating func start() -> InteractionAction<[AttributeStatusIB]> {
        if let timedWindow {
            state = .awaitingTimedStatus
            return .send(.timedRequest, TimedRequestMessage(window: timedWindow).encoded())
        }
        state = .awaitingWriteResponse
        return writeRequest(timed: false)
    }

    /// Completes with every path's status when all are SUCCESS; fails with the first other status and its path.
    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [InteractionAction<[AttributeStatusIB]>] {
        let path = writes.count == 1 ? writes.first.map { InteractionPath.attribute($0.path) } : nil
        switch (state, InteractionModelOpcode(rawValue: opcode)) {
        case (.awaitingTimedStatus, .statusResponse):
            do {
                let response = try StatusResponseMessage(payload: payload)
                guard response.status == .success else {
                    state = .finished
                    return [.failed(.status(StatusIB(status: response.status), path: path))]
                }
                state = .awaitingWriteResponse
                return [writeRequest(timed: true)]
            } catch {
                state = .finished
                return [.failed(error)]
            }
        case (.awaitingWriteResponse, .writeResponse):
            state = .finished
            do {
                let statuses = try WriteResponseMessage(payload: payload).writeResponses
                if let failure = statuses.first(where: { $0.status.status != .success }) {
                    return [.failed(.status(failure.status, path: .attribute(failure.path)))]
                }
                return [.completed(statuses)]
            } catch {
                return [.failed(error)]
            }
        case (.awaitingWriteResponse, .statusResponse):
            state = .finished
            return [.failed(.fromStatusResponse(payload, expecting: "WriteResponse", path: path))]
        case (.awaitingTimedStatus, _):
            state = .finished
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "StatusResponse to TimedRequest"))]
        case (.awaitingWriteResponse, _):
            state = .finished
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "WriteResponse"))]
        case (.idle, _), (.finished, _):
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "nothing (no write under way)"))]
        }
    }

    private func writeRequest(timed: Bool) -> InteractionAction<[AttributeStatusIB]> {
        .send(.writeRequest, WriteRequestMessage(timedRequest: timed, writeRequests: writes).encoded())
    }
}
