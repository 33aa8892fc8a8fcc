import HomeRecords
import MatterMessaging
import MatterNode
import MatterPlatform

/// The process's one Matter node as the hub: one transport carries every exchange the hub has with devices
/// (commissioning, the live connections, pings, removals), and the node on it answers what peers open there: CASE
/// from the devices of the fabric, its endpoint 0, and, through `router`, the exchanges on the sessions the hub
/// opened itself (a subscription's reports).
public struct HubLink: Sendable {
    public let node: LocalNode
    /// Gives each exchange a device opens on a session the hub opened to that session's client: every
    /// `InteractionClient` on the hub's transport routes through it (a transport's incoming exchanges are read once,
    /// by the node).
    public let router: InteractionRouter

    public var transport: MatterTransport { node.transport }

    /// A client of the session `session` opened on the hub's transport.
    public func client(of session: SessionHandle, peerParameters: MRPParameters) -> InteractionClient {
        InteractionClient(transport: transport, session: session, peerParameters: peerParameters, router: router)
    }
}

extension Hub {
    /// The hub's link, opened on first use (its UDP sockets bound on ephemeral ports, its node answering at once, so
    /// a commissioning's interview hears its subscription's reports) and kept until `close()`; after that, refused.
    /// The node advertises itself only once told where (`LocalNode.advertise`).
    public func link() async throws(HubUnavailable) -> HubLink {
        if let open = openLink.withLock({ state -> HubLink? in if case .open(let link) = state { link } else { nil } })
        {
            return open
        }
        // Read before the lock (the store answers on its own queue): a hub that cannot know where its counter resumes
        // sends no group message rather than risk repeating one.
        let groupCounter: UInt32?
        do {
            groupCounter = try await store.groupMessageCounter()
        } catch {
            throw HubUnavailable("the hub's group message counter cannot be read: \(error)")
        }
        let link = try openLink.withLock { state throws(HubUnavailable) -> HubLink in
            switch state {
            case .open(let link): return link
            case .closed: throw HubUnavailable("the hub was closed")
            case .notOpened: break
            }
            do {
                let transport = try makeTransport()
                let link = HubLink(
                    node: LocalNode(
                        model: try HubNode.dataModel(
                            authority: authority, groupMessageCounter: groupCounter, provider: updates),
                        transport: transport,
                        port: try transport.localPorts().ipv4, clock: transport.clock),
                    router: InteractionRouter(transport: transport, fedByNode: true))
                state = .open(link)
                return link
            } catch {
                throw HubUnavailable("the hub's Matter node cannot open its UDP sockets: \(error)")
            }
        }
        // Of the hub's node only its group message counter survives a restart: its fabric and ACL are made from the
        // authority each time.
        // The first to open the link registers the provider (a node takes one handler per protocol).
        try? await link.node.register(updates, for: .bulkDataExchange)
        await link.node.start(persist: { [store] snapshot in
            try await store.setGroupMessageCounter(snapshot.groupMessageCounter)
        }) { [router = link.router] exchange, message in
            await router.deliver(exchange, message)
        }
        return link
    }

    /// Closes the hub's link for good: the node withdraws its advertisements and its sockets close, and every session
    /// on it ends; a later `link()` is refused.
    public func close() async {
        let link = openLink.withLock { state -> HubLink? in
            defer { state = .closed }
            if case .open(let link) = state { return link }
            return nil
        }
        await link?.node.shutdown()
    }
}
