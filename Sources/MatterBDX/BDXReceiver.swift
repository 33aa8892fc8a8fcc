import MatterTime

// Matter Core §11.22.4 and §11.22.5 (receiver drive), as §11.21 uses it: the OTA requestor downloads an image from
// the provider block by block.

/// The receiving side of one transfer it drives itself, without I/O: it proposes with ReceiveInit, takes the sender's
/// ReceiveAccept (receiver drive, a block size no larger than asked, the offset asked), then queries each block in turn
/// and hands its data on; BlockEOF is acknowledged with BlockAckEOF. A block out of order, larger than agreed or past
/// the agreed length, a message out of place, or silence for `BDXTiming.idle` ends it with the status to report.
public struct BDXReceiver: Sendable {
    public enum Action: Sendable, Hashable {
        case send(BDXMessage)
        /// Bytes of the file, in order, from the offset asked.
        case deliver([UInt8])
        /// Bytes received so far, and the length agreed when the sender stated one.
        case progress(received: UInt64, of: UInt64?)
        /// The last block came and was acknowledged.
        case finished
        /// The transfer failed: send a StatusReport with `status` (unless the sender reported it), then end.
        case fail(BDXStatus, reason: String, reported: Bool)
    }

    private enum State: Sendable {
        case awaitingAccept(deadline: Instant)
        case receiving(counter: UInt32, deadline: Instant)
        case finished
        case failed
    }

    private let proposal: BDXTransferInit
    private var blockSize = 0
    private var length: UInt64?
    private var received: UInt64 = 0
    private var state: State

    /// Starts a download of `designator` from `startOffset`, in blocks of at most `maxBlockSize`: the ReceiveInit to send.
    public static func start(
        designator: [UInt8], maxBlockSize: UInt16 = BDXTiming.maxBlockSize, startOffset: UInt64 = 0, now: Instant
    ) -> (BDXReceiver, [Action]) {
        let proposal = BDXTransferInit(
            proposedControl: .receiverDrive, maxBlockSize: maxBlockSize, startOffset: startOffset,
            fileDesignator: designator)
        return (BDXReceiver(proposal: proposal, now: now), [.send(.receiveInit(proposal))])
    }

    private init(proposal: BDXTransferInit, now: Instant) {
        self.proposal = proposal
        state = .awaitingAccept(deadline: now + BDXTiming.idle)
    }

    public var isOver: Bool {
        switch state {
        case .finished, .failed: true
        default: false
        }
    }

    public var nextDeadline: Instant? {
        switch state {
        case .awaitingAccept(let deadline), .receiving(_, let deadline): deadline
        case .finished, .failed: nil
        }
    }

    /// A message from the sender.
    public mutating func received(_ message: BDXMessage, now: Instant) -> [Action] {
        switch (state, message) {
        case (.awaitingAccept, .receiveAccept(let accept)):
            guard accept.control == .receiverDrive else {
                return fail(.transferMethodNotSupported, "the sender chose a transfer the receiver does not drive")
            }
            guard accept.maxBlockSize > 0, accept.maxBlockSize <= proposal.maxBlockSize else {
                return fail(
                    .badMessageContents, "a block size of \(accept.maxBlockSize), not 1 to \(proposal.maxBlockSize)")
            }
            guard accept.startOffset == proposal.startOffset else {
                return fail(
                    .startOffsetNotSupported, "the sender starts at \(accept.startOffset), not the offset asked")
            }
            blockSize = Int(accept.maxBlockSize)
            length = accept.length > 0 ? accept.length : nil
            state = .receiving(counter: 0, deadline: now + BDXTiming.idle)
            return [.send(.blockQuery(counter: 0))]
        case (.receiving(let counter, _), .block(let got, let data)):
            let taken: [Action]
            do {
                taken = try take(counter, got, data, last: false)
            } catch {
                return fail(error.status, error.reason)
            }
            state = .receiving(counter: counter &+ 1, deadline: now + BDXTiming.idle)
            return taken + [.send(.blockQuery(counter: counter &+ 1))]
        case (.receiving(let counter, _), .blockEOF(let got, let data)):
            let taken: [Action]
            do {
                taken = try take(counter, got, data, last: true)
            } catch {
                return fail(error.status, error.reason)
            }
            if let length, received != length {
                return fail(.lengthMismatch, "the transfer ended at \(received) bytes of the \(length) agreed")
            }
            state = .finished
            return taken + [.send(.blockAckEOF(counter: counter)), .finished]
        default:
            return fail(.unexpectedMessage, "\(message.opcode) was not expected now")
        }
    }

    /// The sender reported a failure: the transfer ends, nothing is sent back.
    public mutating func senderFailed(_ status: BDXStatus) -> [Action] {
        guard !isOver else { return [] }
        state = .failed
        return [.fail(status, reason: "the sender ended the transfer: \(status)", reported: true)]
    }

    public mutating func handleTimer(now: Instant) -> [Action] {
        guard let deadline = nextDeadline, now >= deadline else { return [] }
        return fail(.transferFailedUnknownError, "no message from the sender for \(BDXTiming.idle)")
    }

    /// Why a block is refused.
    private struct Refusal: Error {
        let status: BDXStatus
        let reason: String
    }

    /// A block's data as actions; refused when it is not the block due, not of the size agreed, or past the length.
    private mutating func take(_ due: UInt32, _ got: UInt32, _ data: [UInt8], last: Bool) throws(Refusal) -> [Action] {
        guard got == due else {
            throw Refusal(status: .badBlockCounter, reason: "block \(got) came where \(due) was asked")
        }
        guard data.count <= blockSize, last || data.count == blockSize else {
            throw Refusal(
                status: .badMessageContents, reason: "a block of \(data.count) bytes where \(blockSize) were agreed")
        }
        let total = received + UInt64(data.count)
        if let length, total > length {
            throw Refusal(status: .lengthTooLarge, reason: "more than the \(length) bytes agreed")
        }
        received = total
        return [.deliver(data), .progress(received: received, of: length)]
    }

    private mutating func fail(_ status: BDXStatus, _ reason: String) -> [Action] {
        guard !isOver else { return [] }
        state = .failed
        return [.fail(status, reason: reason, reported: false)]
    }
}
