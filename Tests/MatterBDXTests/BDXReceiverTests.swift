import MatterBDX
import MatterTime
import Testing

/// The requestor's side of a download it drives, against our sender and against hand-made messages.
@Suite struct BDXReceiverTests {
    static let file = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    static let designator = Array("fff1-8000-2.ota".utf8)
    static let now = Instant(nanoseconds: 1_000_000_000)

    /// Runs a receiver and a sender against each other until neither has anything to send; what the receiver delivered.
    static func download(
        receiverBlockSize: UInt16, senderBlockSize: UInt16, offset: UInt64 = 0
    ) -> (data: [UInt8], receiver: BDXReceiver, sender: BDXSender, exchanged: Int) {
        var sender = BDXSender(file: file, designator: designator, maxBlockSize: senderBlockSize, now: now)
        var (receiver, pending) = BDXReceiver.start(
            designator: designator, maxBlockSize: receiverBlockSize, startOffset: offset, now: now)
        var data: [UInt8] = []
        var exchanged = 0
        while let action = pending.first {
            pending.removeFirst()
            switch action {
            case .send(let message):
                exchanged += 1
                for reply in sender.received(message, now: now) {
                    if case .send(let back) = reply {
                        exchanged += 1
                        pending += receiver.received(back, now: now)
                    }
                }
            case .deliver(let bytes): data += bytes
            default: break
            }
        }
        return (data, receiver, sender, exchanged)
    }

    @Test func theWholeFileArrivesInOrderAndBothSidesFinish() {
        let (data, receiver, sender, exchanged) = Self.download(receiverBlockSize: 1024, senderBlockSize: 1024)
        #expect(data == Self.file)
        #expect(receiver.isOver && sender.isOver)
        // ReceiveInit, ReceiveAccept, three queries and blocks, BlockAckEOF.
        #expect(exchanged == 2 + 3 * 2 + 1)
    }

    @Test func theSmallerBlockSizeAndAResumedOffsetAreHonoured() {
        let (data, _, _, exchanged) = Self.download(receiverBlockSize: 1024, senderBlockSize: 256, offset: 2500)
        #expect(data == Array(Self.file[2500...]))
        #expect(exchanged == 2 + 2 * 2 + 1)
    }

    @Test func aSenderThatStraysIsRefusedWithTheStatus() {
        func status(_ messages: [BDXMessage]) -> BDXStatus? {
            var (receiver, _) = BDXReceiver.start(designator: Self.designator, maxBlockSize: 512, now: Self.now)
            var last: [BDXReceiver.Action] = []
            for message in messages { last = receiver.received(message, now: Self.now) }
            if case .fail(let status, _, false)? = last.last { return status }
            return nil
        }
        let accept = BDXMessage.receiveAccept(BDXReceiveAccept(control: .receiverDrive, maxBlockSize: 512, length: 600))
        #expect(status([.block(counter: 0, data: [1])]) == .unexpectedMessage)
        #expect(
            status([.receiveAccept(BDXReceiveAccept(control: .receiverDrive, maxBlockSize: 1024))])
                == .badMessageContents)
        #expect(
            status([.receiveAccept(BDXReceiveAccept(control: .senderDrive, maxBlockSize: 512))])
                == .transferMethodNotSupported)
        #expect(status([accept, .block(counter: 1, data: Array(repeating: 0, count: 512))]) == .badBlockCounter)
        #expect(
            status([accept, .block(counter: 0, data: [1, 2])]) == .badMessageContents, "a short block before the end")
        #expect(
            status([
                accept, .block(counter: 0, data: Array(repeating: 0, count: 512)), .blockEOF(counter: 1, data: [1]),
            ])
                == .lengthMismatch)
        #expect(
            status([
                accept, .block(counter: 0, data: Array(repeating: 0, count: 512)),
                .blockEOF(counter: 1, data: Array(repeating: 0, count: 100)),
            ]) == .lengthTooLarge)
    }

    @Test func aSilentSenderIsGivenUpAfterFiveMinutes() {
        var (receiver, _) = BDXReceiver.start(designator: Self.designator, now: Self.now)
        #expect(receiver.nextDeadline == Self.now + .seconds(300))
        #expect(receiver.handleTimer(now: Self.now + .seconds(299)).isEmpty)
        guard
            case .fail(.transferFailedUnknownError, _, false)? = receiver.handleTimer(now: Self.now + .seconds(300))
                .first
        else {
            Issue.record("not given up")
            return
        }
        #expect(receiver.isOver)
    }
}
