import MatterTime

// Matter Core §4.19.4 BTP session: the handshake, segmentation and reassembly, acknowledgements, the receive windows
// and the timers.
/// One BTP connection over one BLE link, without I/O: the caller feeds it what the link received (`received`), the
/// confirmations of the GATT operations it asked for (`packetConfirmed`), the messages to send (`send`) and the time
/// (`handleTimer` at `nextDeadline`), and carries out the actions it returns. The central writes its packets to C1,
/// the peripheral indicates its packets on C2; one GATT operation is in flight at a time. BTP delivers every message
/// whole and in order or fails: a sequence number out of place, an acknowledgement of nothing or a silent peer
/// closes the connection, and the caller disconnects.
public struct BTPSession: Sendable {
    public enum Role: Sendable, Hashable {
        /// The commissioner: it writes the capabilities request and keeps the connection alive.
        case central
        /// The device: it answers the handshake.
        case peripheral
    }

    public enum Action: Sendable, Hashable {
        /// A packet for the link: the central's GATT write to C1, the peripheral's indication on C2. Confirm it with
        /// `packetConfirmed` once the link has (the write's response, the indication's confirmation).
        case send([UInt8])
        /// A whole message from the peer.
        case deliver([UInt8])
        /// The connection is over; the caller ends the BLE link.
        case close(BTPError)
    }

    private enum State: Sendable {
        /// The central's request is out; the response is due by `deadline`. Messages sent meanwhile wait in `queued`.
        case awaitingResponse(deadline: Instant, maximumSegmentSize: Int, queued: [[UInt8]])
        case connected(Link)
        case closed(BTPError)
    }

    public let role: Role
    private var state: State

    private init(role: Role, state: State) {
        self.role = role
        self.state = state
    }

    // MARK: Handshake (§4.19.4.2)

    /// The central's side of a new connection: its capabilities request, to write to C1 (then subscribe to C2, whose
    /// first indication is the response). `attMTU` is the link's, 0 when not known.
    public static func central(attMTU: UInt16, now: Instant) -> (BTPSession, [Action]) {
        let request = BTPHandshake.Request(attMTU: attMTU, window: BTPConstants.receiveWindow)
        let session = BTPSession(
            role: .central,
            state: .awaitingResponse(
                deadline: now + BTPConstants.handshakeTimeout,
                maximumSegmentSize: segmentSize(attMTU: attMTU), queued: []))
        return (session, [.send(request.encoded)])
    }

    /// The peripheral's side: the central's capabilities request, answered with the response to indicate on C2 once
    /// the central subscribes. `maximumSegmentSize` is the most this device's BLE stack carries in one indication (nil:
    /// not known, so 20). A request that does not offer version 4 is refused.
    public static func peripheral(
        request bytes: [UInt8], maximumSegmentSize: Int?, now: Instant
    ) throws(BTPError) -> (BTPSession, [Action]) {
        let request = try BTPHandshake.Request(decoding: bytes)
        guard request.versions.contains(BTPConstants.version) else {
            throw .incompatibleVersion(offered: request.versions)
        }
        guard request.window > 0 else { throw .malformedPacket("a capabilities request offering a window of 0") }
        let fromRequest = request.attMTU > UInt16(BTPConstants.attHeaderSize) ? Int(request.attMTU) - 3 : Int.max
        let size = max(
            BTPConstants.minimumSegmentSize,
            min(fromRequest, maximumSegmentSize ?? BTPConstants.minimumSegmentSize, BTPConstants.maximumSegmentSize))
        let window = min(request.window, BTPConstants.receiveWindow)
        let response = BTPHandshake.Response(version: BTPConstants.version, segmentSize: UInt16(size), window: window)
        // The response is the peripheral's packet 0: acknowledged by the central's first packet.
        var link = Link(segmentSize: size, window: window)
        link.recordSent(sequence: 0, carriesAcknowledgement: false, carriesData: false, now: now, role: .peripheral)
        link.nextSequence = 1
        return (BTPSession(role: .peripheral, state: .connected(link)), [.send(response.encoded)])
    }

    /// The largest segment the central's link carries: its ATT MTU less the ATT header, within BTP's bounds; BTP's
    /// largest when the MTU is not known (the peripheral's choice then stands).
    private static func segmentSize(attMTU: UInt16) -> Int {
        guard attMTU > UInt16(BTPConstants.attHeaderSize) else { return BTPConstants.maximumSegmentSize }
        return max(BTPConstants.minimumSegmentSize, min(Int(attMTU) - 3, BTPConstants.maximumSegmentSize))
    }

    /// Whether the handshake is done and messages flow.
    public var isConnected: Bool {
        if case .connected = state { return true }
        return false
    }

    /// The segment size both sides use, once connected.
    public var segmentSize: Int? {
        if case .connected(let link) = state { return link.segmentSize }
        return nil
    }

    /// The window both sides offered, once connected.
    public var window: UInt8? {
        if case .connected(let link) = state { return link.window }
        return nil
    }

    // MARK: Inputs

    /// Queues a message for the peer; it goes out in segments as the peer's window and the link allow (a message
    /// sent during the handshake, once it is done).
    public mutating func send(_ message: [UInt8], now: Instant) throws(BTPError) -> [Action] {
        guard message.count <= Int(UInt16.max) else { throw .messageTooLarge(message.count) }
        switch state {
        case .closed(let reason):
            throw reason
        case .awaitingResponse(let deadline, let maximumSegmentSize, let queued):
            state = .awaitingResponse(
                deadline: deadline, maximumSegmentSize: maximumSegmentSize, queued: queued + [message])
            return []
        case .connected(var link):
            link.outgoing.append(message)
            let actions = link.drive(now: now, role: role)
            state = .connected(link)
            return actions
        }
    }

    /// A packet from the peer: the central's writes to C1 at the peripheral, the peripheral's indications on C2 at
    /// the central.
    public mutating func received(_ bytes: [UInt8], now: Instant) -> [Action] {
        switch state {
        case .closed:
            return []
        case .awaitingResponse(_, let maximumSegmentSize, let queued):
            do throws(BTPError) {
                let response = try BTPHandshake.Response(decoding: bytes)
                guard response.version == BTPConstants.version else {
                    throw .incompatibleVersion(offered: [response.version])
                }
                guard response.segmentSize >= BTPConstants.minimumSegmentSize else {
                    throw .unusableSegmentSize(Int(response.segmentSize))
                }
                guard response.window > 0 else { throw .malformedPacket("a capabilities response with a window of 0") }
                var link = Link(
                    segmentSize: min(Int(response.segmentSize), maximumSegmentSize), window: response.window)
                // The response was the peripheral's packet 0, which this side's first packet acknowledges.
                link.accept(sequence: 0, now: now)
                link.idleDeadline = now + BTPConstants.idleTimeout
                link.outgoing = queued
                let actions = link.drive(now: now, role: role)
                state = .connected(link)
                return actions
            } catch {
                return close(error)
            }
        case .connected(var link):
            do throws(BTPError) {
                let (delivered, actions) = try link.receive(bytes, now: now, role: role)
                state = .connected(link)
                return delivered.map(Action.deliver) + actions
            } catch {
                return close(error)
            }
        }
    }

    /// The link confirmed the last packet sent (the write's response, the indication's confirmation): the next
    /// may go.
    public mutating func packetConfirmed(now: Instant) -> [Action] {
        guard case .connected(var link) = state else { return [] }
        link.packetInFlight = false
        let actions = link.drive(now: now, role: role)
        state = .connected(link)
        return actions
    }

    /// The earliest time `handleTimer` has something to do; nil when nothing waits.
    public var nextDeadline: Instant? {
        switch state {
        case .awaitingResponse(let deadline, _, _): deadline
        case .connected(let link): link.nextDeadline
        case .closed: nil
        }
    }

    /// Sends a standalone acknowledgement that is due, or closes the connection on a timeout.
    public mutating func handleTimer(now: Instant) -> [Action] {
        switch state {
        case .closed:
            return []
        case .awaitingResponse(let deadline, _, _):
            return deadline <= now ? close(.handshakeTimedOut) : []
        case .connected(var link):
            if let deadline = link.acknowledgementDeadline, deadline <= now { return close(.acknowledgementTimedOut) }
            if role == .central, let deadline = link.idleDeadline, deadline <= now { return close(.idle) }
            if let deadline = link.standaloneAcknowledgementDeadline, deadline <= now {
                link.standaloneAcknowledgementDeadline = nil
                link.standaloneAcknowledgementDue = true
            }
            let actions = link.drive(now: now, role: role)
            state = .connected(link)
            return actions
        }
    }

    /// Ends the connection from this side (the caller is done with it); nothing more is sent or delivered.
    public mutating func close() {
        if case .closed = state { return }
        state = .closed(.closed)
    }

    private mutating func close(_ reason: BTPError) -> [Action] {
        state = .closed(reason)
        return [.close(reason)]
    }
}

extension BTPSession {
    /// What a connected session keeps: both directions' sequence numbers, windows and timers, the message going out
    /// and the one coming in.
    struct Link: Sendable {
        let segmentSize: Int
        /// The window both sides offered: the most packets either may have unacknowledged.
        let window: UInt8

        // Sending.
        var nextSequence: UInt8 = 0
        /// The range of packets sent and not yet acknowledged, while `awaitingAcknowledgement`.
        var oldestUnacknowledged: UInt8 = 0
        var newestSent: UInt8 = 0
        var awaitingAcknowledgement = false
        /// How many more packets the peer takes before it acknowledges.
        var peerWindow: UInt8
        /// A GATT operation is unconfirmed: the next packet waits for it.
        var packetInFlight = false
        var outgoing: [[UInt8]] = []
        /// The message being segmented and how much of it is out.
        var sending: (message: [UInt8], sent: Int)?
        var acknowledgementDeadline: Instant?
        /// The central's: when it closes a connection it has sent nothing on.
        var idleDeadline: Instant?

        // Receiving.
        var expectedSequence: UInt8 = 0
        var lastReceived: UInt8 = 0
        /// Packets arrived since this side last acknowledged.
        var owesAcknowledgement = false
        /// How many more packets this side takes before it must acknowledge.
        var ownWindow: UInt8
        var standaloneAcknowledgementDue = false
        var standaloneAcknowledgementDeadline: Instant?
        /// The message being reassembled: its announced length and what has come of it.
        var reassembling: (length: Int, bytes: [UInt8])?

        init(segmentSize: Int, window: UInt8) {
            self.segmentSize = segmentSize
            self.window = window
            peerWindow = window
            ownWindow = window
        }

        var nextDeadline: Instant? {
            [acknowledgementDeadline, idleDeadline, standaloneAcknowledgementDeadline].compactMap { $0 }.min()
        }

        /// A packet with `sequence` accepted: it is owed an acknowledgement, and takes a place in this side's window.
        mutating func accept(sequence: UInt8, now: Instant) {
            expectedSequence = sequence &+ 1
            lastReceived = sequence
            owesAcknowledgement = true
            ownWindow = ownWindow > 0 ? ownWindow - 1 : 0
            if standaloneAcknowledgementDeadline == nil {
                standaloneAcknowledgementDeadline = now + BTPConstants.standaloneAcknowledgementDelay
            }
        }

        /// A packet sent with `sequence`: it takes a place in the peer's window and waits for its acknowledgement; one
        /// that carries an acknowledgement frees this side's window.
        mutating func recordSent(
            sequence: UInt8, carriesAcknowledgement: Bool, carriesData: Bool, now: Instant, role: Role
        ) {
            if !awaitingAcknowledgement {
                oldestUnacknowledged = sequence
                awaitingAcknowledgement = true
                acknowledgementDeadline = now + BTPConstants.acknowledgementTimeout
            }
            newestSent = sequence
            peerWindow = peerWindow > 0 ? peerWindow - 1 : 0
            packetInFlight = true
            if carriesAcknowledgement {
                owesAcknowledgement = false
                ownWindow = window
                standaloneAcknowledgementDue = false
                standaloneAcknowledgementDeadline = nil
            }
            if carriesData && role == .central { idleDeadline = now + BTPConstants.idleTimeout }
        }

        /// §4.19.4.5: reads one packet; returns the message it completed, if any, and what to send now.
        mutating func receive(_ bytes: [UInt8], now: Instant, role: Role) throws(BTPError) -> ([[UInt8]], [Action]) {
            let packet = try BTPPacket(decoding: bytes)
            if let acknowledged = packet.acknowledged { try acknowledge(acknowledged, now: now) }
            guard packet.sequence == expectedSequence else {
                throw .unexpectedSequenceNumber(expected: expectedSequence, received: packet.sequence)
            }
            guard ownWindow > 0 else { throw .malformedPacket("the peer sent past the window of \(window) packets") }
            accept(sequence: packet.sequence, now: now)
            var delivered: [[UInt8]] = []
            if packet.carriesData, let message = try reassemble(packet) { delivered.append(message) }
            // The peer's window for us is about to close: acknowledge now rather than wait for data to carry it.
            if ownWindow <= BTPConstants.immediateAcknowledgementWindow { standaloneAcknowledgementDue = true }
            return (delivered, drive(now: now, role: role))
        }

        /// An acknowledgement of packets up to `number`: it must name one sent and not yet acknowledged.
        private mutating func acknowledge(_ number: UInt8, now: Instant) throws(BTPError) {
            let inRange =
                oldestUnacknowledged <= newestSent
                ? (oldestUnacknowledged...newestSent).contains(number)
                : number >= oldestUnacknowledged || number <= newestSent
            guard awaitingAcknowledgement, inRange else { throw .invalidAcknowledgement(number) }
            peerWindow = window &- (newestSent &- number)
            if number == newestSent {
                awaitingAcknowledgement = false
                acknowledgementDeadline = nil
            } else {
                oldestUnacknowledged = number &+ 1
                acknowledgementDeadline = now + BTPConstants.acknowledgementTimeout
            }
        }

        /// §4.19.4.4: a message's segments in order: a first one announcing the length, later ones continuing it, the
        /// last ending it with no byte missing (bytes past the length are padding).
        private mutating func reassemble(_ packet: BTPPacket) throws(BTPError) -> [UInt8]? {
            if packet.flags.contains(.beginning) {
                guard reassembling == nil else { throw .reassembly("a first segment in the middle of a message") }
                guard !packet.flags.contains(.continuing) else { throw .reassembly("a segment both first and later") }
                reassembling = (Int(packet.messageLength ?? 0), packet.payload)
            } else {
                guard var message = reassembling else { throw .reassembly("a later segment with no message begun") }
                message.bytes += packet.payload
                reassembling = message
            }
            guard let message = reassembling else { return nil }
            guard packet.flags.contains(.ending) else {
                guard message.bytes.count < message.length else {
                    throw .reassembly("segments past the message's \(message.length) bytes")
                }
                return nil
            }
            reassembling = nil
            guard message.bytes.count >= message.length else {
                throw .reassembly("the message ended after \(message.bytes.count) of its \(message.length) bytes")
            }
            return Array(message.bytes.prefix(message.length))
        }

        /// The next packet, when one may go: a standalone acknowledgement that is due, else the next segment (carrying
        /// the acknowledgement this side owes). Nothing goes while a packet is unconfirmed or the peer's window is
        /// full; its last place is kept for a packet that carries an acknowledgement.
        mutating func drive(now: Instant, role: Role) -> [Action] {
            guard !packetInFlight, peerWindow > 0 else { return [] }
            let sequence = nextSequence
            if standaloneAcknowledgementDue && owesAcknowledgement {
                let packet = BTPPacket(flags: .acknowledgement, acknowledged: lastReceived, sequence: sequence)
                nextSequence &+= 1
                recordSent(sequence: sequence, carriesAcknowledgement: true, carriesData: false, now: now, role: role)
                return [.send(packet.encoded)]
            }
            standaloneAcknowledgementDue = false
            if sending == nil, !outgoing.isEmpty { sending = (outgoing.removeFirst(), 0) }
            guard let (message, sent) = sending else { return [] }
            guard owesAcknowledgement || peerWindow > BTPConstants.windowKeptForAcknowledgements else { return [] }
            let acknowledged = owesAcknowledgement ? lastReceived : nil
            let first = sent == 0
            let header = 2 + (acknowledged == nil ? 0 : 1) + (first ? 2 : 0)
            let end = min(message.count, sent + segmentSize - header)
            var flags: BTPFlags = first ? .beginning : .continuing
            if end == message.count { flags.insert(.ending) }
            if acknowledged != nil { flags.insert(.acknowledgement) }
            let packet = BTPPacket(
                flags: flags, acknowledged: acknowledged, sequence: sequence,
                messageLength: first ? UInt16(message.count) : nil, payload: Array(message[sent..<end]))
            sending = end == message.count ? nil : (message, end)
            nextSequence &+= 1
            recordSent(
                sequence: sequence, carriesAcknowledgement: acknowledged != nil, carriesData: true, now: now,
                role: role)
            return [.send(packet.encoded)]
        }
    }
}
