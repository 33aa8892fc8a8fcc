// Matter Core §8.5 Subscribe Interaction, client side:
//   SubscribeRequest → priming ReportData chunks (each answered with StatusResponse SUCCESS) → SubscribeResponse,
//   then ReportData on exchanges the publisher opens, each answered unless it carries SuppressResponse.
// A wildcard subscription is also how to read a whole device: CircuitMatter chunks a priming report correctly but
// not a read. Liveness (`SubscriptionLiveness`) and resubscription (`ResubscriptionBackoff`) are the driver's, fed
// by the `.established` and `.report` actions.
public struct SubscribeTransaction: Sendable {
    private enum State: Sendable {
        /// The request is held only until it is sent: a live subscription lasts as long as the hub follows the node,
        /// and a resubscription's request carries a data version filter per cluster.
        case idle(SubscribeRequestMessage)
        case priming(ReportAssembler, subscriptionID: UInt32?)
        case awaitingSubscribeResponse(InteractionReport, subscriptionID: UInt32?)
        case active(ReportAssembler, subscriptionID: UInt32)
        case finished
    }

    private var state: State

    public init(request: SubscribeRequestMessage) {
        state = .idle(request)
    }

    /// The subscription's ID once the publisher accepted it.
    public var subscriptionID: UInt32? {
        guard case .active(_, let subscriptionID) = state else { return nil }
        return subscriptionID
    }

    /// The SubscribeRequest that opens the exchange; called once, first.
    public mutating func start() -> SubscriptionAction {
        guard case .idle(let request) = state else { preconditionFailure("a SubscribeTransaction starts once") }
        state = .priming(ReportAssembler(), subscriptionID: nil)
        return .send(.subscribeRequest, request.encoded())
    }

    public mutating func receive(opcode: UInt8, payload: [UInt8]) -> [SubscriptionAction] {
        let current = state
        state = .finished
        switch (current, InteractionModelOpcode(rawValue: opcode)) {
        case (.priming(var assembler, let knownID), .reportData):
            switch Self.take(payload, into: &assembler, knownID: knownID) {
            case .partial(let acknowledgement, let id):
                state = .priming(assembler, subscriptionID: id)
                return acknowledgement
            case .whole(let report, let acknowledgement, let id):
                state = .awaitingSubscribeResponse(report, subscriptionID: id)
                return acknowledgement
            case .otherSubscription:
                state = current
                return [.status(.invalidSubscription)]
            case .failure(let actions):
                return actions
            }
        case (.priming(let assembler, let knownID), .subscribeResponse) where assembler.chunks == 0:
            return handleSubscribeResponse(payload, priming: InteractionReport(), knownID: knownID)
        case (.awaitingSubscribeResponse(let priming, let knownID), .subscribeResponse):
            return handleSubscribeResponse(payload, priming: priming, knownID: knownID)
        case (.active(var assembler, let id), .reportData):
            switch Self.take(payload, into: &assembler, knownID: id) {
            case .partial(let acknowledgement, _):
                state = .active(assembler, subscriptionID: id)
                return acknowledgement
            case .whole(let report, let acknowledgement, _):
                state = .active(assembler, subscriptionID: id)
                return acknowledgement + [.report(report)]
            case .otherSubscription:
                state = current
                return [.status(.invalidSubscription)]
            case .failure(let actions):
                return actions
            }
        case (.priming, .statusResponse), (.awaitingSubscribeResponse, .statusResponse):
            return [.failed(.fromStatusResponse(payload, expecting: "the priming report"))]
        case (.priming, _):
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "the priming ReportData"))]
        case (.awaitingSubscribeResponse, _):
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "SubscribeResponse"))]
        case (.active, _):
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "ReportData"))]
        case (.idle, _), (.finished, _):
            return [.failed(.unexpectedMessage(opcode: opcode, expecting: "nothing (no subscription under way)"))]
        }
    }

    private enum ChunkOutcome {
        case partial(acknowledgement: [SubscriptionAction], subscriptionID: UInt32?)
        case whole(InteractionReport, acknowledgement: [SubscriptionAction], subscriptionID: UInt32?)
        case otherSubscription
        case failure([SubscriptionAction])
    }

    /// One ReportData chunk: acknowledged unless it suppresses the response, and joined to the report under way.
    /// A chunk naming another subscription is refused with INVALID_SUBSCRIPTION and leaves this one as it was.
    private static func take(
        _ payload: [UInt8], into assembler: inout ReportAssembler, knownID: UInt32?
    ) -> ChunkOutcome {
        let message: ReportDataMessage
        do {
            message = try ReportDataMessage(payload: payload)
        } catch {
            return .failure([.status(.invalidAction), .failed(error)])
        }
        if let knownID, let received = message.subscriptionID, received != knownID {
            return .otherSubscription
        }
        let id = knownID ?? message.subscriptionID
        let acknowledgement: [SubscriptionAction] = message.suppressResponse ? [] : [.status(.success)]
        do {
            guard let report = try assembler.add(message) else {
                return .partial(acknowledgement: acknowledgement, subscriptionID: id)
            }
            return .whole(report, acknowledgement: acknowledgement, subscriptionID: id)
        } catch {
            return .failure([.status(.resourceExhausted), .failed(error)])
        }
    }

    private mutating func handleSubscribeResponse(
        _ payload: [UInt8], priming: InteractionReport, knownID: UInt32?
    ) -> [SubscriptionAction] {
        do {
            let response = try SubscribeResponseMessage(payload: payload)
            if let knownID, response.subscriptionID != knownID {
                return [.failed(.subscriptionMismatch(expected: knownID, received: response.subscriptionID))]
            }
            state = .active(ReportAssembler(), subscriptionID: response.subscriptionID)
            return [
                .established(
                    subscriptionID: response.subscriptionID, maxInterval: .seconds(response.maxInterval),
                    priming: priming)
            ]
        } catch {
            return [.failed(error)]
        }
    }
}
