// Matter Core §8.4 Read Interaction, client side: ReadRequest → ReportData chunks → result.
// Every chunk flagged MoreChunkedMessages is answered with StatusResponse SUCCESS; the last one carries
// SuppressResponse (answered only if it does not). A StatusResponse with an error ends the read.
// CircuitMatter cannot chunk a read (its chunks ask for no answer yet it waits for one): read a whole device
// through a wildcard subscription instead.
public struct ReadTransaction: Sendable {
    private enum State: Sendable {
        case idle
        case awaitingReport(ReportAssembler)
        case finished
    }

    public let request: ReadRequestMessage
    private var state = State.idle

    public init(request: ReadRequestMessage) {
        self.request = request
    }

    /// The ReadRequest that opens the exchange.
    public mutating func start() -> InteractionAction<InteractionReport> {
        state = .awaitingReport(ReportAssembler())
        return .send(.readRequest, request.encoded())
    }

    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [InteractionAction<InteractionReport>] {
        guard case .awaitingReport(var assembler) = state else {
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "nothing (the read is over)"))]
        }
        state = .finished
        switch InteractionModelOpcode(rawValue: opcode) {
        case .reportData:
            let message: ReportDataMessage
            do {
                message = try ReportDataMessage(payload: payload)
            } catch {
                return [.status(.invalidAction), .failed(error)]
            }
            do {
                guard let report = try assembler.add(message) else {
                    state = .awaitingReport(assembler)
                    return [.status(.success)]
                }
                return message.suppressResponse ? [.completed(report)] : [.status(.success), .completed(report)]
            } catch {
                return [.status(.resourceExhausted), .failed(error)]
            }
        case .statusResponse:
            return [.failed(.fromStatusResponse(payload, expecting: "ReportData"))]
        default:
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "ReportData"))]
        }
    }
}
