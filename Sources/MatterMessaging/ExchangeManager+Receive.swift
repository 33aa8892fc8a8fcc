// Matter Core §4.6 message reception, §4.10.4 exchange matching, §4.12.5.2 MRP reception
extension ExchangeManager {
    /// Takes one datagram from `peer`. Malformed, unauthentic or unroutable datagrams throw and change nothing.
    /// A duplicate is never delivered; if it asks for an acknowledgement, it is acknowledged again at once.
    public mutating func receive(
        _ datagram: [UInt8], from peer: PeerAddress, now: Instant
    ) throws(ExchangeError) -> [Action] {
        let header: MessageHeader
        do throws(MessageError) {
            header = try MessageHeader.decode(datagram).header
        } catch {
            throw .message(error)
        }
        // §4.16: a group message belongs to no session of ours; its keys are the group layer's (no MRP, no reply).
        guard header.sessionType == .unicast else {
            return [.deliverGroupMessage(GroupDatagram(header: header, datagram: datagram), from: peer)]
        }
        let (handle, message) = try open(datagram, header: header, from: peer)
        guard var session = sessions[handle] else { throw .unknownSession(handle) }
        let protocolHeader = message.protocolHeader
        let exchange = ExchangeHandle(
            session: handle, exchangeID: protocolHeader.exchangeID,
            role: protocolHeader.isInitiator ? .responder : .initiator)
        let counter = message.header.messageCounter

        // §4.12.5.2.2: a duplicate asking for an acknowledgement gets one now, since the first ack may be lost.
        guard session.receptionWindow.accept(counter) == .new else {
            sessions[handle] = session
            guard protocolHeader.needsAcknowledgement else { return [] }
            if exchanges[exchange]?.pendingAcknowledgement?.messageCounter == counter {
                exchanges[exchange]?.pendingAcknowledgement = nil
            }
            return [standaloneAcknowledgement(of: counter, on: exchange)]
        }
        session.lastReceived = now
        sessions[handle] = session

        var actions: [Action] = []
        if let acknowledged = protocolHeader.acknowledgedMessageCounter {
            acknowledge(acknowledged, on: exchange)
        }
        guard !protocolHeader.isStandaloneAcknowledgement else { return actions }

        let delivered = ExchangeMessage(
            protocolID: protocolHeader.protocolID, opcode: protocolHeader.opcode, payload: message.payload)
        var state: Exchange
        if let existing = exchanges[exchange], !existing.isClosed {
            state = existing
            // Matter's exchanges alternate: the peer's next message is its answer to ours, so it proves ours
            // arrived even when the acknowledgement itself was lost (the peer may have acked it standalone
            // already and not repeat it). Retransmitting it further would only block our reply.
            state.outstanding = nil
            actions.append(.deliver(.message(exchange, delivered)))
        } else if exchanges[exchange] == nil, protocolHeader.isInitiator {
            state = Exchange()
            actions.append(.deliver(.newExchange(exchange, delivered)))
        } else {
            // §4.10.5.2: for a closed or unknown exchange only the acknowledgement is owed.
            if protocolHeader.needsAcknowledgement {
                actions.append(standaloneAcknowledgement(of: counter, on: exchange))
            }
            return actions
        }
        if protocolHeader.needsAcknowledgement {
            // §4.12.5.2.1: only one acknowledgement waits per exchange; an older one goes out first.
            if let older = state.pendingAcknowledgement {
                exchanges[exchange] = state
                let flushed = standaloneAcknowledgement(of: older.messageCounter, on: exchange)
                actions.append(flushed)
                if case .exchangeFailed = flushed { return actions }
            }
            state.pendingAcknowledgement = Exchange.PendingAcknowledgement(
                messageCounter: counter, deadline: now + ReliableMessagingConstants.standaloneAckTimeout)
        }
        exchanges[exchange] = state
        return actions
    }

    /// §4.12.5.2.3: an acknowledgement of the exchange's outstanding message ends its retransmissions.
    private mutating func acknowledge(_ messageCounter: UInt32, on exchange: ExchangeHandle) {
        guard var state = exchanges[exchange], state.outstanding?.messageCounter == messageCounter else { return }
        state.outstanding = nil
        exchanges[exchange] = state.isFinished ? nil : state
    }

    /// Finds the session a datagram belongs to and decodes (for secure sessions: authenticates and decrypts) it.
    /// A new unsecured session is created only for a message that opens an exchange.
    private mutating func open(
        _ datagram: [UInt8], header: MessageHeader, from peer: PeerAddress
    ) throws(ExchangeError) -> (SessionHandle, Message) {
        if header.isSecured {
            guard let handle = sessionsByLocalSessionID[header.sessionID],
                case let .secure(parameters) = sessions[handle]?.kind
            else { throw .unknownSecureSessionID(header.sessionID) }
            do throws(MessageError) {
                let message = try Message.decrypt(
                    datagram, key: parameters.decryptionKey, nonceSourceNodeID: parameters.peerNonceNodeID)
                return (handle, message)
            } catch {
                throw .message(error)
            }
        }
        let message: Message
        do throws(MessageError) {
            message = try Message.decode(datagram)
        } catch {
            throw .message(error)
        }
        if case let .node(nodeID) = header.destination {
            guard let handle = sessionsByEphemeralNodeID[nodeID] else { throw .unknownEphemeralNodeID(nodeID) }
            return (handle, message)
        }
        guard let sourceNodeID = header.sourceNodeID else { throw .unsolicitedUnsecuredMessage(sourceNodeID: nil) }
        let unsecuredPeer = UnsecuredPeer(address: peer, ephemeralNodeID: sourceNodeID)
        if let handle = sessionsByUnsecuredPeer[unsecuredPeer] {
            return (handle, message)
        }
        guard message.protocolHeader.isInitiator, !message.protocolHeader.isStandaloneAcknowledgement else {
            throw .unsolicitedUnsecuredMessage(sourceNodeID: sourceNodeID)
        }
        let handle = addSession(
            .unsecuredResponder(peerEphemeralNodeID: sourceNodeID), peer: peer, peerParameters: .default)
        sessionsByUnsecuredPeer[unsecuredPeer] = handle
        return (handle, message)
    }
}

extension ProtocolHeader {
    /// §4.10.1: the MRP Standalone Acknowledgement carries nothing for the application.
    fileprivate var isStandaloneAcknowledgement: Bool {
        protocolID == .secureChannel && opcode == SecureChannelOpcode.standaloneAcknowledgement.rawValue
    }
}
