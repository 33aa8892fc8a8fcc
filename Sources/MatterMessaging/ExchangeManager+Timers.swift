// Matter Core §4.12.5.1 retransmission, §4.12.5.2.1 standalone acknowledgement timing
extension ExchangeManager {
    /// The earliest time `handleTimer(now:)` has something to do; nil when nothing waits.
    public var nextDeadline: Instant? {
        // A closure, not a key path: in a generic type a key path is built at run time on every call.
        exchanges.values.compactMap { $0.nextDeadline }.min()
    }

    /// Sends the standalone acknowledgements and retransmissions that are due, and fails the exchanges whose
    /// last transmission went unanswered. Exchanges are handled in deadline order so runs are reproducible.
    public mutating func handleTimer(now: Instant) -> [Action] {
        let due = exchanges.compactMap { handle, state in
            state.nextDeadline.flatMap { $0 <= now ? (handle, $0) : nil }
        }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }

        var actions: [Action] = []
        for (handle, _) in due {
            if let pending = exchanges[handle]?.pendingAcknowledgement, pending.deadline <= now {
                exchanges[handle]?.pendingAcknowledgement = nil
                actions.append(standaloneAcknowledgement(of: pending.messageCounter, on: handle))
            }
            if let outstanding = exchanges[handle]?.outstanding, outstanding.deadline <= now {
                actions.append(contentsOf: retransmit(outstanding, on: handle, now: now))
            }
            if exchanges[handle]?.isFinished == true {
                exchanges[handle] = nil
            }
        }
        return actions
    }

    private mutating func retransmit(
        _ outstanding: Exchange.OutstandingMessage, on handle: ExchangeHandle, now: Instant
    ) -> [Action] {
        guard outstanding.transmissions < ReliableMessagingConstants.maximumTransmissions,
            let session = sessions[handle.session]
        else {
            exchanges[handle] = nil
            return [
                .exchangeFailed(
                    handle,
                    .deliveryFailed(
                        handle, protocolID: outstanding.protocolID, opcode: outstanding.opcode,
                        transmissions: outstanding.transmissions))
            ]
        }
        var next = outstanding
        next.deadline = now + retransmissionTimeout(for: session, priorTransmissions: next.transmissions, now: now)
        next.transmissions += 1
        exchanges[handle]?.outstanding = next
        return [.send(outstanding.datagram, to: session.peerAddress)]
    }
}
