import MatterTime
import Testing

@testable import MatterBTP

/// The BTP engine against the frames of connectedhomeip's `TestBtpEngine.cpp`, `TestBleLayer.cpp` and
/// `TestBleEndPoint.cpp`, and matter.js's `BtpSessionHandlerTest.ts` (their bytes are facts, written here).
@Suite struct BTPSessionTests {
    static let start = Instant(nanoseconds: 1_000_000_000)

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    static func sent(_ actions: [BTPSession.Action]) -> [[UInt8]] {
        actions.compactMap { if case .send(let bytes) = $0 { bytes } else { nil } }
    }

    static func delivered(_ actions: [BTPSession.Action]) -> [[UInt8]] {
        actions.compactMap { if case .deliver(let bytes) = $0 { bytes } else { nil } }
    }

    static func closed(_ actions: [BTPSession.Action]) -> BTPError? {
        actions.lazy.compactMap { if case .close(let error) = $0 { error } else { nil } }.first
    }

    /// A central connected with connectedhomeip's test fixture: segment size 20, window 6, the response (the
    /// peripheral's packet 0) received and not yet acknowledged.
    static func central(segmentSize: Int = 20) -> BTPSession {
        var (session, _) = BTPSession.central(attMTU: 247, now: start)
        let response = BTPHandshake.Response(version: 4, segmentSize: UInt16(segmentSize), window: 6)
        #expect(session.received(response.encoded, now: start).isEmpty)
        return session
    }

    /// A peripheral that answered a request for segment size 20 and had its response confirmed.
    static func peripheral() throws -> BTPSession {
        var (session, actions) = try BTPSession.peripheral(
            request: bytes("656c04000000b90006"), maximumSegmentSize: 20, now: start)
        #expect(sent(actions) == [bytes("656c04140006")])
        #expect(session.packetConfirmed(now: start).isEmpty)
        return session
    }

    // MARK: Handshake

    @Test func theCentralRequestsVersion4WithItsMTUAndWindowAndTakesTheResponse() {
        var (central, actions) = BTPSession.central(attMTU: 247, now: Self.start)
        // TestBleEndPoint: v4 in the first version byte's low nibble, the MTU, window 6.
        #expect(Self.sent(actions) == [Self.bytes("656c04000000f70006")])
        #expect(!central.isConnected)
        #expect(central.received(Self.bytes("656c04640006"), now: Self.start).isEmpty)
        #expect(central.isConnected)
        #expect(central.segmentSize == 100)
        #expect(central.window == 6)
    }

    /// A message the central is given before the response waits for it, then goes out first, carrying the
    /// acknowledgement of the response.
    @Test func aMessageSentDuringTheHandshakeGoesOutOnceItIsDone() throws {
        var (central, _) = BTPSession.central(attMTU: 247, now: Self.start)
        #expect(try central.send([1, 2, 3], now: Self.start).isEmpty)
        let actions = central.received(Self.bytes("656c04640006"), now: Self.start)
        #expect(Self.sent(actions) == [Self.bytes("0d0000030001 0203")])
    }

    @Test(
        "the peripheral picks the segment size its link and the central's MTU allow",
        arguments: [
            ("656c04000000b90006", 100, "656c04640006"),  // matter.js: MTU 185, the platform's 100
            ("656c04000000b90006", nil, "656c04140006"),  // the platform's size not known: 20
            ("656c54000000c80006", 244, "656c04c50006"),  // connectedhomeip: versions 4 and 5, MTU 200 → 197
            ("656c04000000000009", 128, "656c04800006"),  // MTU not known: the platform's; window capped at 6
        ] as [(String, Int?, String)])
    func peripheralHandshake(request: String, platform: Int?, response: String) throws {
        let (session, actions) = try BTPSession.peripheral(
            request: Self.bytes(request), maximumSegmentSize: platform, now: Self.start)
        #expect(Self.sent(actions) == [Self.bytes(response)])
        #expect(session.isConnected)
    }

    @Test func aHandshakeWithoutVersion4OrMalformedIsRefused() {
        #expect(throws: BTPError.incompatibleVersion(offered: [5])) {
            _ = try BTPSession.peripheral(
                request: Self.bytes("656c05000000000006"), maximumSegmentSize: nil, now: Self.start)
        }
        #expect(throws: BTPError.self) {
            _ = try BTPSession.peripheral(
                request: Self.bytes("6e6c04000000000006"), maximumSegmentSize: nil, now: Self.start)
        }
        var (central, _) = BTPSession.central(attMTU: 0, now: Self.start)
        #expect(
            Self.closed(central.received(Self.bytes("656c05640006"), now: Self.start))
                == .incompatibleVersion(offered: [5]))
        var (small, _) = BTPSession.central(attMTU: 0, now: Self.start)
        #expect(Self.closed(small.received(Self.bytes("656c04130006"), now: Self.start)) == .unusableSegmentSize(19))
    }

    @Test func aCentralWithoutAnswerGivesUpAfterTheHandshakeTimeout() {
        var (central, _) = BTPSession.central(attMTU: 0, now: Self.start)
        #expect(central.nextDeadline == Self.start + BTPConstants.handshakeTimeout)
        #expect(central.handleTimer(now: Self.start + .seconds(4)).isEmpty)
        #expect(Self.closed(central.handleTimer(now: Self.start + .seconds(5))) == .handshakeTimedOut)
    }

    // MARK: connectedhomeip TestBtpEngine (the central fixture: receive sequence numbers start at 1)

    @Test func receivesOneTwoAndThreeSegmentMessages() {
        var central = Self.central()
        #expect(Self.delivered(central.received(Self.bytes("0501010 0ff"), now: Self.start)) == [[0xFF]])
        var two = Self.central()
        #expect(two.received(Self.bytes("01010200fe"), now: Self.start).isEmpty)
        #expect(Self.delivered(two.received(Self.bytes("0402ff"), now: Self.start)) == [[0xFE, 0xFF]])
        var three = Self.central()
        #expect(three.received(Self.bytes("01010300fd"), now: Self.start).isEmpty)
        #expect(three.received(Self.bytes("0202fe"), now: Self.start).isEmpty)
        #expect(Self.delivered(three.received(Self.bytes("0403ff"), now: Self.start)) == [[0xFD, 0xFE, 0xFF]])
    }

    @Test func paddingPastTheMessageLengthIsDropped() {
        var central = Self.central()
        #expect(Self.delivered(central.received(Self.bytes("05010100ff0000000000"), now: Self.start)) == [[0xFF]])
    }

    @Test func standaloneAcknowledgementsAcknowledgeTheLastPacket() {
        // A fresh central owes the response (packet 0) its acknowledgement.
        var fresh = Self.central()
        #expect(
            Self.sent(fresh.handleTimer(now: Self.start + BTPConstants.standaloneAcknowledgementDelay)) == [
                Self.bytes("080000")
            ])
        var one = Self.central()
        _ = one.received(Self.bytes("05010100ff"), now: Self.start)
        #expect(Self.sent(one.handleTimer(now: Self.start + .seconds(3))) == [Self.bytes("080100")])
        var three = Self.central()
        for packet in ["01010300fd", "0202fe", "0403ff"] { _ = three.received(Self.bytes(packet), now: Self.start) }
        #expect(Self.sent(three.handleTimer(now: Self.start + .seconds(3))) == [Self.bytes("080300")])
    }

    @Test func anAcknowledgementOfNothingAndASequenceOutOfPlaceCloseTheConnection() throws {
        var unexpected = Self.central()
        #expect(Self.closed(unexpected.received(Self.bytes("080001"), now: Self.start)) == .invalidAcknowledgement(0))
        #expect(!unexpected.isConnected)

        // Two segments out (0 and 1); the acknowledgement of 0 is good, sequence 2 is not the one due (1).
        var sender = Self.central()
        let first = Self.sent(try sender.send(Array(0..<30), now: Self.start))
        let second = Self.sent(sender.packetConfirmed(now: Self.start))
        // The first carries the acknowledgement of the response; the last is C|E.
        #expect(first == [Self.bytes("0900001e00") + Array(0..<15)])
        #expect(second == [Self.bytes("0601") + Array(15..<30)])
        #expect(
            Self.closed(sender.received(Self.bytes("080002"), now: Self.start))
                == .unexpectedSequenceNumber(expected: 1, received: 2))

        var skipped = Self.central()
        #expect(
            Self.closed(skipped.received(Self.bytes("05020100ff"), now: Self.start))
                == .unexpectedSequenceNumber(expected: 1, received: 2))
    }

    @Test func segmentsOutOfPlaceAreRefused() {
        var later = Self.central()
        #expect(
            Self.closed(later.received(Self.bytes("0401ff"), now: Self.start))
                == .reassembly("a later segment with no message begun"))
        var twice = Self.central()
        _ = twice.received(Self.bytes("01010300fd"), now: Self.start)
        #expect(
            Self.closed(twice.received(Self.bytes("05020100ff"), now: Self.start))
                == .reassembly("a first segment in the middle of a message"))
        var short = Self.central()
        _ = short.received(Self.bytes("01010300fd"), now: Self.start)
        #expect(
            Self.closed(short.received(Self.bytes("0402fe"), now: Self.start))
                == .reassembly("the message ended after 2 of its 3 bytes"))
    }

    // MARK: Windows (§4.19.4.6)

    /// A peer that does not acknowledge: the sender stops with the last place of the peer's window free (five packets
    /// of six), and goes on when an acknowledgement frees it, that packet carrying the acknowledgement it owes.
    @Test func theSenderStopsAtThePeersWindowAndGoesOnWhenAcknowledged() throws {
        var central = Self.central()
        var packets = Self.sent(try central.send(Array(repeating: 7, count: 200), now: Self.start))
        for _ in 0..<6 { packets += Self.sent(central.packetConfirmed(now: Self.start)) }
        #expect(packets.count == 5, "\(packets.count) packets out before any acknowledgement")
        #expect(packets.map { $0[0] } == [0x09, 0x02, 0x02, 0x02, 0x02])
        // The peripheral acknowledges packet 2 (its own packet 1): three places free, and an acknowledgement owed.
        let next = Self.sent(central.received(Self.bytes("080201"), now: Self.start))
        #expect(next.map { Array($0.prefix(3)) } == [[0x0A, 0x01, 0x05]])
    }

    /// A receiver whose window is down to its last place acknowledges at once, not after the standalone delay.
    @Test func theReceiverAcknowledgesAtOnceWhenItsWindowIsAboutToClose() throws {
        var peripheral = try Self.peripheral()
        let segments =
            [Self.bytes("0900006400") + Array(repeating: 1, count: 15)]
            + (1...4).map { [0x02, UInt8($0)] + Array(repeating: 1, count: 18) }
        for (index, segment) in segments.enumerated() {
            let answer = Self.sent(peripheral.received(segment, now: Self.start))
            #expect(answer == (index < 4 ? [] : [Self.bytes("080401")]), "after packet \(index)")
        }
    }

    /// Sequence numbers wrap from 255 to 0, and an acknowledgement is judged within the wrapped range.
    @Test func sequenceNumbersWrapAndAcknowledgementsFollow() throws {
        var central = Self.central()
        var peerSequence: UInt8 = 1
        var sent = 0
        // Messages of one segment each, every one acknowledged: 300 packets take the sequence past 255.
        for index in 0..<300 {
            var packets = Self.sent(try central.send([UInt8(index & 0xFF)], now: Self.start))
            packets += Self.sent(central.packetConfirmed(now: Self.start))
            sent += packets.count
            let sequence = try BTPPacket(decoding: try #require(packets.last)).sequence
            #expect(sequence == UInt8(truncatingIfNeeded: index))
            #expect(
                central.received([0x08, sequence, peerSequence], now: Self.start).allSatisfy {
                    if case .close = $0 { false } else { true }
                })
            peerSequence &+= 1
        }
        // Two more out, unacknowledged (sequence 44 and 45); an acknowledgement of 43, already acknowledged, is refused.
        _ = try central.send(Array(repeating: 1, count: 30), now: Self.start)
        _ = central.packetConfirmed(now: Self.start)
        #expect(
            Self.closed(central.received([0x08, 43, peerSequence], now: Self.start)) == .invalidAcknowledgement(43))
    }

    // MARK: matter.js BtpSessionHandlerTest (the peripheral, segment size 20)

    @Test func thePeripheralAnswersAcknowledgingWhatItReceived() throws {
        var peripheral = try Self.peripheral()
        // The central's packet 0, acknowledging the response: A|B|E, a 9-byte message.
        let message = peripheral.received(Self.bytes("0d0000090001020304050607080 9"), now: Self.start)
        #expect(Self.delivered(message) == [Array(1...9)])
        let reply = try peripheral.send(Array((1...9).reversed()), now: Self.start)
        #expect(Self.sent(reply) == [Self.bytes("0d00010900090807060504030201")])
    }

    @Test func thePeripheralReassemblesAndSegments() throws {
        var peripheral = try Self.peripheral()
        #expect(
            peripheral.received(
                Self.bytes("0900001000") + [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6], now: Self.start
            ).isEmpty)
        #expect(Self.delivered(peripheral.received(Self.bytes("060107"), now: Self.start)).first?.count == 16)
        let message: [UInt8] = [3, 2, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 8, 7, 6, 5, 4]
        #expect(
            Self.sent(try peripheral.send(message, now: Self.start)) == [
                Self.bytes("0901011200030201090807060504030201090807")
            ])
        #expect(Self.sent(peripheral.packetConfirmed(now: Self.start)) == [Self.bytes("0602060504")])
    }

    @Test func thePeripheralSendsAStandaloneAcknowledgementWhenItHasNothingToSay() throws {
        var peripheral = try Self.peripheral()
        _ = peripheral.received(Self.bytes("0d000009000102030405060708 09"), now: Self.start)
        #expect(peripheral.nextDeadline == Self.start + BTPConstants.standaloneAcknowledgementDelay)
        #expect(
            Self.sent(peripheral.handleTimer(now: Self.start + BTPConstants.standaloneAcknowledgementDelay)) == [
                Self.bytes("080001")
            ])
    }
}
