import MatterBDX
import MatterTime
import Testing

/// The provider's side of a receiver-driven transfer, on a clock of plain instants.
@Suite struct BDXSenderTests {
    static let file = (0..<2500).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    static let designator = Array("fff1-8000-2.ota".utf8)
    static let start = Instant(nanoseconds: 1_000_000_000)

    static func proposal(blockSize: UInt16 = 1024, offset: UInt64 = 0) -> BDXMessage {
        .receiveInit(
            BDXTransferInit(
                proposedControl: .receiverDrive, maxBlockSize: blockSize, startOffset: offset,
                fileDesignator: designator))
    }

    @Test func theReceiverGetsTheFileBlockByBlockThenAcknowledgesTheLast() {
        var sender = BDXSender(file: Self.file, designator: Self.designator, now: Self.start)
        #expect(
            sender.received(Self.proposal(), now: Self.start) == [
                .send(.receiveAccept(BDXReceiveAccept(control: .receiverDrive, maxBlockSize: 1024, length: 2500)))
            ])
        var received: [UInt8] = []
        var progress: [UInt64] = []
        for counter in UInt32(0)...2 {
            for action in sender.received(.blockQuery(counter: counter), now: Self.start) {
                switch action {
                case .send(.block(let got, let data)), .send(.blockEOF(let got, let data)):
                    #expect(got == counter)
                    received += data
                case .progress(let sent, let total):
                    #expect(total == 2500)
                    progress.append(sent)
                default: Issue.record("unexpected \(action)")
                }
            }
        }
        #expect(received == Self.file)
        #expect(progress == [1024, 2048, 2500])
        #expect(!sender.isOver)
        #expect(sender.received(.blockAckEOF(counter: 2), now: Self.start) == [.finished])
        #expect(sender.isOver && sender.nextDeadline == nil)
    }

    @Test func theSmallerBlockSizeWinsAndAnOffsetResumes() {
        var sender = BDXSender(file: Self.file, designator: Self.designator, now: Self.start)
        #expect(
            sender.received(Self.proposal(blockSize: 256, offset: 2000), now: Self.start) == [
                .send(
                    .receiveAccept(
                        BDXReceiveAccept(control: .receiverDrive, maxBlockSize: 256, startOffset: 2000, length: 500)))
            ])
        #expect(
            sender.received(.blockQuery(counter: 0), now: Self.start) == [
                .send(.block(counter: 0, data: Array(Self.file[2000..<2256]))), .progress(sent: 256, of: 500),
            ])
        // A query that skips: 200 bytes on, from 2456 to the end.
        #expect(
            sender.received(.blockQueryWithSkip(counter: 1, bytesToSkip: 200), now: Self.start) == [
                .send(.blockEOF(counter: 1, data: Array(Self.file[2456...]))), .progress(sent: 500, of: 500),
            ])
    }

    @Test func whatCannotBeServedIsRefusedWithItsStatus() {
        func first(_ messages: [BDXMessage]) -> BDXSender.Action? {
            var sender = BDXSender(file: Self.file, designator: Self.designator, now: Self.start)
            var last: [BDXSender.Action] = []
            for message in messages { last = sender.received(message, now: Self.start) }
            return last.first
        }
        func status(_ action: BDXSender.Action?) -> BDXStatus? {
            if case .fail(let status, _, let reported)? = action, !reported { return status }
            return nil
        }
        #expect(status(first([.blockQuery(counter: 0)])) == .unexpectedMessage)
        #expect(
            status(
                first([
                    .receiveInit(
                        BDXTransferInit(proposedControl: .receiverDrive, maxBlockSize: 64, fileDesignator: [1]))
                ])) == .fileDesignatorUnknown)
        #expect(
            status(
                first([
                    .receiveInit(
                        BDXTransferInit(
                            proposedControl: .senderDrive, maxBlockSize: 64, fileDesignator: Self.designator))
                ])) == .transferMethodNotSupported)
        #expect(status(first([Self.proposal(offset: 9999)])) == .startOffsetNotSupported)
        #expect(status(first([Self.proposal(), .blockQuery(counter: 1)])) == .badBlockCounter)
        #expect(
            status(first([Self.proposal(), .blockQueryWithSkip(counter: 0, bytesToSkip: 5000)])) == .lengthTooLarge)
    }

    @Test func aSilentReceiverIsGivenUpAfterFiveMinutes() {
        var sender = BDXSender(file: Self.file, designator: Self.designator, now: Self.start)
        _ = sender.received(Self.proposal(), now: Self.start)
        _ = sender.received(.blockQuery(counter: 0), now: Self.start)
        let deadline = Self.start + .seconds(300)
        #expect(sender.nextDeadline == deadline)
        #expect(sender.handleTimer(now: Self.start + .seconds(299)).isEmpty)
        guard case .fail(.transferFailedUnknownError, _, false)? = sender.handleTimer(now: deadline).first else {
            Issue.record("not given up")
            return
        }
        #expect(sender.isOver)
        // A failure the receiver reports ends it without an answer.
        var other = BDXSender(file: Self.file, designator: Self.designator, now: Self.start)
        _ = other.received(Self.proposal(), now: Self.start)
        guard case .fail(.responderBusy, _, true)? = other.receiverFailed(.responderBusy).first else {
            Issue.record("the receiver's failure was not taken")
            return
        }
    }
}
