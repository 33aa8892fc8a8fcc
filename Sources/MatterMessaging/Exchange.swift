// Matter Core §4.12.5 MRP state of one exchange
/// The reliability state of one open exchange.
struct Exchange: Sendable {
    /// §4.12.5.2.1: a received reliable message not yet acknowledged.
    struct PendingAcknowledgement: Sendable {
        let messageCounter: UInt32
        /// When it goes out as a standalone acknowledgement if no outgoing message has carried it.
        let deadline: Instant
    }

    /// §4.12.5.1: the one reliable message of the exchange still awaiting its acknowledgement.
    struct OutstandingMessage: Sendable {
        /// Exactly the bytes sent first; a retransmission repeats them, counter included.
        let datagram: [UInt8]
        let messageCounter: UInt32
        let protocolID: ProtocolID
        let opcode: UInt8
        var transmissions: Int
        var deadline: Instant
    }

    var pendingAcknowledgement: PendingAcknowledgement?
    var outstanding: OutstandingMessage?
    /// Closed by the application: nothing more is sent or delivered, but the last message is still
    /// retransmitted until acknowledged.
    var isClosed = false

    var nextDeadline: Instant? {
        [pendingAcknowledgement?.deadline, outstanding?.deadline].compactMap { $0 }.min()
    }

    /// A closed exchange stays only while its last message waits for an acknowledgement.
    var isFinished: Bool {
        isClosed && outstanding == nil && pendingAcknowledgement == nil
    }
}
