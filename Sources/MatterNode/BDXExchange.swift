import MatterBDX
import MatterMessaging
import MatterPlatform
import MatterSecureChannel
import MatterTime

/// Bulk Data Exchange (Matter Core §11.22) carried on one exchange of the node's transport: what `BDXSender` and
/// `BDXReceiver` ask for is sent there, what arrives there is fed to them, and their deadlines are the waits. A
/// StatusReport on the exchange (§11.22.5: general code FAILURE, protocol BDX) is the peer ending the transfer; one is
/// sent when ours ends it.
public enum BDXExchange {
    /// How a transfer ended, for the side that ran it.
    public enum End: Sendable, Hashable, CustomStringConvertible {
        case finished
        /// `status` is the BDX status reported (by us, or by the peer when `byPeer`); nil when the exchange itself
        /// failed (the peer stopped acknowledging).
        case failed(BDXStatus?, reason: String, byPeer: Bool)

        public var description: String {
            switch self {
            case .finished: "the transfer completed"
            case .failed(_, let reason, true): "the peer ended the transfer: \(reason)"
            case .failed(_, let reason, false): "the transfer failed: \(reason)"
            }
        }
    }

    /// Serves the transfer whose first message (a ReceiveInit) opened `exchange`; `progress` hears each block sent.
    public static func serve(
        _ sender: BDXSender, first: ExchangeMessage, on exchange: ExchangeHandle, over transport: MatterTransport,
        progress: @Sendable (_ sent: UInt64, _ of: UInt64) -> Void = { _, _ in }
    ) async -> End {
        var sender = sender
        let opening = steps(for: first, to: &sender, now: transport.clock.now)
        let end = await run(&sender, opening: opening, on: exchange, over: transport) { step in
            if case .progress(let sent, let total?) = step { progress(sent, total) }
        }
        await transport.close(exchange)
        return end
    }

    /// Downloads `designator` from the peer of `session` (the receiver drives, as an OTA requestor does), from
    /// `startOffset`: each block is handed to `deliver` in order; `progress` hears the bytes so far of the length the
    /// sender stated.
    public static func download(
        _ designator: [UInt8], startOffset: UInt64 = 0, maxBlockSize: UInt16 = BDXTiming.maxBlockSize,
        on session: SessionHandle, over transport: MatterTransport,
        deliver: @Sendable ([UInt8]) -> Void,
        progress: @Sendable (_ received: UInt64, _ of: UInt64?) -> Void = { _, _ in }
    ) async -> End {
        let exchange: ExchangeHandle
        do {
            exchange = try await transport.openExchange(on: session)
        } catch {
            return .failed(nil, reason: "no exchange could be opened: \(error)", byPeer: false)
        }
        var (receiver, opening) = BDXReceiver.start(
            designator: designator, maxBlockSize: maxBlockSize, startOffset: startOffset, now: transport.clock.now)
        let end = await run(&receiver, opening: opening.map(Step.init), on: exchange, over: transport) { step in
            switch step {
            case .deliver(let bytes): deliver(bytes)
            case .progress(let received, let total): progress(received, total)
            default: break
            }
        }
        await transport.close(exchange)
        return end
    }

    /// Ends a transfer before it began (a designator unknown, no place free): the StatusReport, and the exchange closed.
    public static func refuse(_ exchange: ExchangeHandle, _ status: BDXStatus, over transport: MatterTransport) async {
        try? await transport.send(statusReport(status), on: exchange)
        await transport.close(exchange)
    }

    /// §11.22.5: general code FAILURE, protocol BDX, the BDX status.
    static func statusReport(_ status: BDXStatus) -> ExchangeMessage {
        let report = StatusReport(
            generalCode: .failure, protocolID: UInt32(ProtocolID.bulkDataExchange.rawValue),
            protocolCode: status.rawValue)
        return ExchangeMessage(
            protocolID: .secureChannel, opcode: SecureChannelOpcode.statusReport.rawValue, payload: report.encode())
    }

    /// Carries out `side`'s steps on the exchange until the transfer ends, feeding it what arrives and its timer.
    static func run<Side: BDXTransferSide>(
        _ side: inout Side, opening: [Step], on exchange: ExchangeHandle, over transport: MatterTransport,
        observe: (Step) -> Void
    ) async -> End {
        var steps = opening
        while true {
            for step in steps {
                observe(step)
                switch step {
                case .send(let message):
                    do {
                        try await transport.send(
                            ExchangeMessage(
                                protocolID: .bulkDataExchange, opcode: message.opcode.rawValue,
                                payload: message.payload), on: exchange)
                    } catch {
                        return .failed(nil, reason: "sending \(message.opcode) failed: \(error)", byPeer: false)
                    }
                case .finished: return .finished
                case .fail(let status, let reason, let reported):
                    if !reported { try? await transport.send(statusReport(status), on: exchange) }
                    return .failed(status, reason: reason, byPeer: reported)
                case .deliver, .progress: break
                }
            }
            guard let deadline = side.nextDeadline else {
                return .failed(nil, reason: "the transfer stopped with nothing left to do", byPeer: false)
            }
            let wait = max(.zero, transport.clock.now.duration(to: deadline))
            do {
                let message = try await transport.receive(on: exchange, timeout: wait)
                steps = Self.steps(for: message, to: &side, now: transport.clock.now)
            } catch TransportError.timedOut {
                steps = side.timerSteps(now: transport.clock.now)
            } catch {
                return .failed(nil, reason: "the exchange failed: \(error)", byPeer: false)
            }
        }
    }

    /// What a message on the exchange does: a BDX message is the side's to judge; a StatusReport ends the transfer as
    /// the peer says; anything else is out of place.
    static func steps<Side: BDXTransferSide>(
        for message: ExchangeMessage, to side: inout Side, now: Instant
    ) -> [Step] {
        if message.protocolID == .secureChannel, message.opcode == SecureChannelOpcode.statusReport.rawValue {
            let status = (try? StatusReport.decode(message.payload))
                .flatMap { $0.protocolID == UInt32(ProtocolID.bulkDataExchange.rawValue) ? $0 : nil }
                .flatMap { BDXStatus(rawValue: $0.protocolCode) }
            return side.peerFailedSteps(status ?? .unknown)
        }
        guard message.protocolID == .bulkDataExchange else {
            return [.fail(.unexpectedMessage, reason: "a \(message.protocolID) message in a transfer", reported: false)]
        }
        do {
            return side.receivedSteps(try BDXMessage(opcode: message.opcode, payload: message.payload), now: now)
        } catch {
            return [.fail(.badMessageContents, reason: "\(error)", reported: false)]
        }
    }

    /// One action of either side.
    enum Step {
        case send(BDXMessage)
        case deliver([UInt8])
        case progress(UInt64, UInt64?)
        case finished
        case fail(BDXStatus, reason: String, reported: Bool)

        init(_ action: BDXSender.Action) {
            switch action {
            case .send(let message): self = .send(message)
            case .progress(let sent, let total): self = .progress(sent, total)
            case .finished: self = .finished
            case .fail(let status, let reason, let reported): self = .fail(status, reason: reason, reported: reported)
            }
        }

        init(_ action: BDXReceiver.Action) {
            switch action {
            case .send(let message): self = .send(message)
            case .deliver(let bytes): self = .deliver(bytes)
            case .progress(let received, let total): self = .progress(received, total)
            case .finished: self = .finished
            case .fail(let status, let reason, let reported): self = .fail(status, reason: reason, reported: reported)
            }
        }
    }
}

/// The sender or the receiver of a transfer, as the exchange's loop drives it.
protocol BDXTransferSide {
    var nextDeadline: Instant? { get }
    mutating func receivedSteps(_ message: BDXMessage, now: Instant) -> [BDXExchange.Step]
    mutating func peerFailedSteps(_ status: BDXStatus) -> [BDXExchange.Step]
    mutating func timerSteps(now: Instant) -> [BDXExchange.Step]
}

extension BDXSender: BDXTransferSide {
    mutating func receivedSteps(_ message: BDXMessage, now: Instant) -> [BDXExchange.Step] {
        received(message, now: now).map(BDXExchange.Step.init)
    }

    mutating func peerFailedSteps(_ status: BDXStatus) -> [BDXExchange.Step] {
        receiverFailed(status).map(BDXExchange.Step.init)
    }

    mutating func timerSteps(now: Instant) -> [BDXExchange.Step] {
        handleTimer(now: now).map(BDXExchange.Step.init)
    }
}

extension BDXReceiver: BDXTransferSide {
    mutating func receivedSteps(_ message: BDXMessage, now: Instant) -> [BDXExchange.Step] {
        received(message, now: now).map(BDXExchange.Step.init)
    }

    mutating func peerFailedSteps(_ status: BDXStatus) -> [BDXExchange.Step] {
        senderFailed(status).map(BDXExchange.Step.init)
    }

    mutating func timerSteps(now: Instant) -> [BDXExchange.Step] {
        handleTimer(now: now).map(BDXExchange.Step.init)
    }
}
