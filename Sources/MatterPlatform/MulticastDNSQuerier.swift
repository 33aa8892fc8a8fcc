import MatterDiscovery

/// Runs a `DiscoveryStateMachine` on the wire (RFC 6762 one-shot queries), only on the interfaces the caller names.
///
/// Queries leave from an ephemeral port, so an mDNS daemon can keep port 5353; responders answer such
/// queries by unicast to that port (RFC 6762 §5.1). Responders that answer by multicast anyway are
/// heard through a second socket that shares port 5353 with SO_REUSEPORT; if the port cannot be
/// shared, discovery goes on with unicast answers only.
public struct MulticastDNSQuerier: Sendable {
    /// The time of a browse's query schedule and of its window.
    let clock: any DriverClock

    public init(clock: any DriverClock = SystemClock()) {
        self.clock = clock
    }

    /// Commissionable nodes (`_matterc._udp`) matching the filter, heard until `timeout`.
    public func browseCommissionable(
        _ filter: CommissionableFilter, interfaces: [String], timeout: Duration
    ) async throws(MulticastDNSError) -> [CommissionableNode] {
        guard
            case .commissionable(let nodes) = try await run(
                .commissionable(filter), interfaces: interfaces, timeout: timeout)
        else { return [] }
        return nodes
    }

    /// The Thread Border Routers (`_meshcop._udp`) heard until `timeout`.
    public func browseThreadBorderRouters(
        interfaces: [String], timeout: Duration
    ) async throws(MulticastDNSError) -> [ThreadBorderRouter] {
        guard
            case .threadBorderRouters(let routers) = try await run(
                .threadBorderRouters, interfaces: interfaces, timeout: timeout)
        else { return [] }
        return routers
    }

    /// Commissionable nodes matching the filter, each as soon as it is resolved (a commissioner starts with the first
    /// while later ones are kept as fallbacks). The stream ends at `timeout`, or `DiscoveryTiming.matchSettle` after
    /// the first match of a discriminator filter; cancelling its consumer ends the discovery.
    public func commissionableMatches(
        _ filter: CommissionableFilter, interfaces: [String], timeout: Duration
    ) -> AsyncThrowingStream<CommissionableNode, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    _ = try await run(.commissionable(filter), interfaces: interfaces, timeout: timeout) { node in
                        continuation.yield(node)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The operational node `peer` (`_matter._tcp`); throws `notFound` when it does not answer within `timeout`.
    public func resolveOperational(
        _ peer: OperationalPeerID, interfaces: [String], timeout: Duration
    ) async throws(MulticastDNSError) -> OperationalNode {
        guard case .operational(let node?) = try await run(.operational(peer), interfaces: interfaces, timeout: timeout)
        else {
            throw .notFound(peer, timeout: timeout)
        }
        return node
    }

    private func run(
        _ target: DiscoveryTarget, interfaces: [String], timeout: Duration,
        onResolved: (CommissionableNode) -> Void = { _ in }
    ) async throws(MulticastDNSError) -> DiscoveryStateMachine.DiscoveryResult {
        guard !interfaces.isEmpty else { throw .noInterfaces }
        let sockets: MulticastDNSSockets
        do {
            sockets = try MulticastDNSSockets(interfaces: interfaces)
        } catch {
            throw .socket(error)
        }
        let clock = self.clock
        func now() -> Instant { clock.now }

        // Wakes the loop when a socket is readable (with the `resume` that re-arms that socket once drained) or
        // when the machine's timer is due (with nothing to resume): the loop sleeps in between, never polls.
        let (wakeups, wake) = AsyncStream<@Sendable () -> Void>.makeStream()
        let watchers = sockets.all.map { socket in
            SocketReadiness(descriptor: socket.readinessDescriptor) { resume in wake.yield(resume) }
        }
        var timer = DeadlineTimer()
        defer {
            for watcher in watchers { watcher.cancel() }
            timer.cancel()
            wake.finish()
            // The descriptors stay open until their sources are cancelled.
            withExtendedLifetime(sockets) {}
        }

        var machine = DiscoveryStateMachine(target: target, timeout: timeout)
        var pending = machine.start(now: now())
        var wakeupIterator = wakeups.makeAsyncIterator()
        while true {
            for action in pending {
                switch action {
                case .send(let packet):
                    do { try sockets.sendQuery(packet) } catch { throw .socket(error) }
                case .armTimer(let instant):
                    timer.arm(instant, on: clock) { _ in wake.yield({}) }
                case .resolved(let node):
                    onResolved(node)
                case .finished(let result):
                    return result
                }
            }
            pending = []
            if let deadline = timer.deadline, now() >= deadline, timer.fired(deadline) {
                pending = machine.timerFired(now: now())
                continue
            }
            guard let resume = await wakeupIterator.next() else { throw .cancelled }
            if Task.isCancelled { throw .cancelled }
            let packets: [[UInt8]]
            do { packets = try sockets.receiveResponses() } catch { throw .socket(error) }
            resume()
            for packet in packets { pending += machine.receive(packet, now: now()) }
        }
    }
}

/// The sockets of one discovery: per family, a query socket on an ephemeral port and, when the port
/// can be shared, a listener on 5353 joined to the group on each named interface.
private struct MulticastDNSSockets {
    private let interfaces: [String]
    private let ipv6Interfaces: [String]
    private let query4: UDPSocket
    private let query6: UDPSocket?
    private let listeners: [UDPSocket]

    init(interfaces: [String]) throws(SocketError) {
        for name in interfaces { _ = try NetworkInterface.index(named: name) }
        self.interfaces = interfaces
        ipv6Interfaces = interfaces.filter(NetworkInterface.hasIPv6Address(named:))

        query4 = try UDPSocket(family: .ipv4)
        try query4.bind(to: .ipv4(MulticastDNSConstants.ipv4Any, port: 0))
        try query4.setMulticastLoop(true, hopLimit: MulticastDNSConstants.hopLimit)
        var listeners = [try? Self.listener(.ipv4, group: MulticastDNSConstants.ipv4Group, interfaces: interfaces)]
            .compactMap { $0 }
        if ipv6Interfaces.isEmpty {
            query6 = nil
        } else {
            let socket = try UDPSocket(family: .ipv6)
            try socket.bind(to: .ipv6(MulticastDNSConstants.ipv6Any, port: 0))
            try socket.setMulticastLoop(true, hopLimit: MulticastDNSConstants.hopLimit)
            query6 = socket
            listeners += [
                try? Self.listener(.ipv6, group: MulticastDNSConstants.ipv6Group(scope: 0), interfaces: ipv6Interfaces)
            ].compactMap { $0 }
        }
        self.listeners = listeners
    }

    /// One copy of the query per interface and family. A path that cannot carry it (IPv6 multicast
    /// on `lo` has no route: ENETUNREACH) is skipped; only when no copy went out is that an error.
    func sendQuery(_ packet: [UInt8]) throws(SocketError) {
        var firstError: SocketError?
        var sent = 0
        func attempt(_ send: () throws(SocketError) -> Void) {
            do throws(SocketError) {
                try send()
                sent += 1
            } catch {
                firstError = firstError ?? error
            }
        }
        for interface in interfaces {
            attempt { () throws(SocketError) in
                try query4.setMulticastInterface(interface)
                try query4.send(packet, to: MulticastDNSConstants.ipv4Group)
            }
        }
        if let query6 {
            for interface in ipv6Interfaces {
                attempt { () throws(SocketError) in
                    try query6.setMulticastInterface(interface)
                    try query6.send(
                        packet, to: MulticastDNSConstants.ipv6Group(scope: try NetworkInterface.index(named: interface))
                    )
                }
            }
        }
        if sent == 0, let firstError { throw firstError }
    }

    /// Every datagram waiting now; RFC 6762 §6: a response not sent from port 5353 is ignored.
    /// Every socket, to wait on.
    var all: [UDPSocket] { [query4] + [query6].compactMap { $0 } + listeners }

    func receiveResponses() throws(SocketError) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        for socket in [query4] + [query6].compactMap({ $0 }) + listeners {
            while let (bytes, sender) = try socket.receive(maximumLength: MulticastDNSConstants.maximumPacketSize) {
                if sender.port == MulticastDNSConstants.port { packets.append(bytes) }
            }
        }
        return packets
    }

    private static func listener(
        _ family: UDPSocket.Family, group: SocketAddress, interfaces: [String]
    ) throws(SocketError) -> UDPSocket {
        let socket = try UDPSocket(family: family)
        try socket.allowPortSharing()
        switch family {
        case .ipv4: try socket.bind(to: .ipv4(MulticastDNSConstants.ipv4Any, port: MulticastDNSConstants.port))
        case .ipv6: try socket.bind(to: .ipv6(MulticastDNSConstants.ipv6Any, port: MulticastDNSConstants.port))
        }
        for interface in interfaces { try socket.joinMulticastGroup(group, interface: interface) }
        return socket
    }
}
