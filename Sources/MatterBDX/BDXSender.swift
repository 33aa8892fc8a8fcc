import MatterTime

// Matter Core §11.22.4 and §11.22.5 (receiver drive), as §11.21 uses it: the OTA provider sends an image the requestor
// asks for block by block.

/// The sending side of one transfer the receiver drives, without I/O: the receiver's ReceiveInit is answered with
/// ReceiveAccept (the smaller of the two block sizes; the length from the offset asked to the file's end), each
/// BlockQuery with the next block (the last as BlockEOF), and BlockAckEOF ends the transfer. A message out of place, a
/// block counter out of order or an offset past the end ends it with the status to report, and so does silence for
/// `BDXTiming.idle`. The caller sends what the actions say, feeds what the receiver sends (`received`) and the time
/// (`handleTimer` at `nextDeadline`).
public struct BDXSender: Sendable {
    public enum Action: Sendable, Hashable {
        case send(BDXMessage)
        /// How far the transfer is: bytes sent of the length agreed.
        case progress(sent: UInt64, of: UInt64)
        /// The receiver acknowledged the last block: the transfer is complete.
        case finished
        /// The transfer failed: send a StatusReport with `status` (unless `reported` says the peer sent one), then end.
        case fail(BDXStatus, reason: String, reported: Bool)
    }

    private enum State: Sendable {
        case awaitingInit(deadline: Instant)
        /// Blocks flow: the next query must ask for `counter`, which covers `offset` onwards.
        case sending(counter: UInt32, offset: Int, deadline: Instant)
        /// BlockEOF went out; its acknowledgement is due.
        case awaitingFinalAck(counter: UInt32, deadline: Instant)
        case finished
        case failed
    }

    private let file: [UInt8]
    private let designator: [UInt8]
    private let maxBlockSize: UInt16
    private var blockSize = 0
    private var start = 0
    private var state: State

    /// Serves `file` under `designator` (what the receiver's ReceiveInit must name), in blocks of at most
    /// `maxBlockSize` bytes.
    public init(file: [UInt8], designator: [UInt8], maxBlockSize: UInt16 = BDXTiming.maxBlockSize, now: Instant) {
        self.file = file
        self.designator = designator
        self.maxBlockSize = maxBlockSize
        state = .awaitingInit(deadline: now + BDXTiming.idle)
    }

    /// Whether the transfer is over, either way.
    public var isOver: Bool {
        switch state {
        case .finished, .failed: true
        default: false
        }
    }

    public var nextDeadline: Instant? {
        switch state {
        case .awaitingInit(let deadline), .sending(_, _, let deadline), .awaitingFinalAck(_, let deadline): deadline
        case .finished, .failed: nil
        }
    }

    /// A message from the receiver.
    public mutating func received(_ message: BDXMessage, now: Instant) -> [Action] {
        switch (state, message) {
        case (.awaitingInit, .receiveInit(let proposal)):
            return accept(proposal, now: now)
        case (.sending(let counter, let offset, _), .blockQuery(let asked)):
            guard asked == counter else {
                return fail(.badBlockCounter, "block \(asked) asked where \(counter) was due")
            }
            return sendBlock(counter, from: offset, now: now)
        case (.sending(let counter, let offset, _), .blockQueryWithSkip(let asked, let skip)):
            guard asked == counter else {
                return fail(.badBlockCounter, "block \(asked) asked where \(counter) was due")
            }
            let (skipped, overflow) = offset.addingReportingOverflow(Int(clamping: skip))
            guard !overflow, skipped <= file.count else {
                return fail(.lengthTooLarge, "a skip of \(skip) bytes passes the file's end")
            }
            return sendBlock(counter, from: skipped, now: now)
        case (.sending(let counter, _, _), .blockAck(let acknowledged)):
            // An acknowledgement of the last block is allowed before the next query; nothing to do.
            guard acknowledged &+ 1 == counter else {
                return fail(.badBlockCounter, "block \(acknowledged) acknowledged where \(counter &- 1) was sent")
            }
            return []
        case (.awaitingFinalAck(let counter, _), .blockAckEOF(let acknowledged)):
            guard acknowledged == counter else {
                return fail(.badBlockCounter, "block \(acknowledged) acknowledged as the last, \(counter) was")
            }
            state = .finished
            return [.finished]
        default:
            return fail(.unexpectedMessage, "\(message.opcode) was not expected now")
        }
    }

    /// The receiver reported a failure (a BDX StatusReport): the transfer ends, nothing is sent back.
    public mutating func receiverFailed(_ status: BDXStatus) -> [Action] {
        guard !isOver else { return [] }
        state = .failed
        return [.fail(status, reason: "the receiver ended the transfer: \(status)", reported: true)]
    }

    public mutating func handleTimer(now: Instant) -> [Action] {
        guard let deadline = nextDeadline, now >= deadline else { return [] }
        return fail(.transferFailedUnknownError, "no message from the receiver for \(BDXTiming.idle)")
    }

    private mutating func accept(_ proposal: BDXTransferInit, now: Instant) -> [Action] {
        // A newer version proposed is answered with ours, the lower (§11.22.6.2: the responder picks).
        guard proposal.proposedControl.contains(.receiverDrive) else {
            return fail(.transferMethodNotSupported, "only a transfer the receiver drives is served")
        }
        guard proposal.fileDesignator == designator else {
            return fail(.fileDesignatorUnknown, "no file under that designator")
        }
        guard proposal.startOffset <= UInt64(file.count) else {
            return fail(.startOffsetNotSupported, "offset \(proposal.startOffset) is past the file's end")
        }
        blockSize = Int(min(proposal.maxBlockSize, maxBlockSize))
        guard blockSize > 0 else { return fail(.badMessageContents, "a block size of 0") }
        start = Int(proposal.startOffset)
        let length = UInt64(file.count - start)
        if proposal.maxLength > 0, proposal.maxLength < length {
            return fail(.lengthTooLarge, "the file's \(length) bytes are more than the \(proposal.maxLength) asked")
        }
        state = .sending(counter: 0, offset: start, deadline: now + BDXTiming.idle)
        return [
            .send(
                .receiveAccept(
                    BDXReceiveAccept(
                        control: .receiverDrive, maxBlockSize: UInt16(blockSize), startOffset: proposal.startOffset,
                        length: length)))
        ]
    }

    private mutating func sendBlock(_ counter: UInt32, from offset: Int, now: Instant) -> [Action] {
        let end = min(offset + blockSize, file.count)
        let data = Array(file[offset..<end])
        let sent = UInt64(end - start), total = UInt64(file.count - start)
        if end == file.count {
            state = .awaitingFinalAck(counter: counter, deadline: now + BDXTiming.idle)
            return [.send(.blockEOF(counter: counter, data: data)), .progress(sent: sent, of: total)]
        }
        state = .sending(counter: counter &+ 1, offset: end, deadline: now + BDXTiming.idle)
        return [.send(.block(counter: counter, data: data)), .progress(sent: sent, of: total)]
    }

    private mutating func fail(_ status: BDXStatus, _ reason: String) -> [Action] {
        guard !isOver else { return [] }
        state = .failed
        return [.fail(status, reason: reason, reported: false)]
    }
}

/// Every limit and timing of BDX here, with its reason.
public enum BDXTiming {
    /// §11.22.4: a transfer with no message for 5 minutes is abandoned (connectedhomeip's idle timeout too).
    public static let idle = Duration.seconds(300)
    /// The largest block this side sends: connectedhomeip's OTA requestors ask for 1024 bytes, which fits one message
    /// over UDP; over a reliable link (TCP) more would do, and the receiver's ask is the cap either way.
    public static let maxBlockSize: UInt16 = 1024
}
