import MatterDiscovery

/// Publishes a node's Matter services by mDNS (RFC 6762) on the interfaces the caller names, and only there:
/// runs a `MulticastDNSResponderState` over a socket per family bound to port 5353 (shared with
/// SO_REUSEPORT, so an mDNS daemon and our querier's listener keep working) and joined to the group on
/// each named interface. One actor owns the state; it sleeps until a socket is readable or the state's timer
/// is due, and is fed packets and time then.
///
/// Call `shutdown()` before letting it go: that is when the goodbyes go out.
public actor MulticastDNSResponder {
    private var state: MulticastDNSResponderState<SocketAddress>
    private let sockets: ResponderSockets
    private let clock: any DriverClock
    private var timer = DeadlineTimer()
    private var readiness: [SocketReadiness] = []
    private var isShutDown = false

    /// Publishes the addresses the named interfaces have now under `hostName`. Nothing is sent until `advertise`.
    public init(
        interfaces: [String], hostName: DNSName, clock: any DriverClock = SystemClock()
    ) throws(MulticastDNSError) {
        guard !interfaces.isEmpty else { throw .noInterfaces }
        self.clock = clock
        var ipv4: [IPv4Address] = [], ipv6: [IPv6Address] = []
        do {
            for name in interfaces {
                let addresses = try NetworkInterface.addresses(named: name)
                ipv4 += addresses.ipv4
                ipv6 += addresses.ipv6
            }
            sockets = try ResponderSockets(interfaces: interfaces)
        } catch {
            throw .socket(error)
        }
        do {
            state = try MulticastDNSResponderState(
                host: ResponderHost(name: hostName, ipv4Addresses: ipv4, ipv6Addresses: ipv6))
        } catch {
            throw .advertisement(error)
        }
        // The readiness sources hold the responder weakly, so releasing the responder ends them too.
        Task { [weak self] in await self?.watchSockets() }
    }

    deinit {
        for source in readiness { source.cancel() }
        timer.cancel()
    }

    /// The host name and addresses the SRV and address records carry.
    public var host: ResponderHost { state.host }

    /// Publishes an advertisement (or replaces the one with its instance name) and announces it.
    public func advertise(_ advertisement: MatterAdvertisement) throws(MulticastDNSError) {
        guard !isShutDown else { throw .shutDown }
        let actions: [MulticastDNSResponderState<SocketAddress>.Action]
        do { actions = try state.advertise(advertisement, now: now) } catch { throw .advertisement(error) }
        execute(actions)
    }

    /// Stops publishing an advertisement and says goodbye to its records.
    public func withdraw(_ advertisement: MatterAdvertisement) throws(MulticastDNSError) {
        guard !isShutDown else { throw .shutDown }
        execute(state.withdraw(advertisement, now: now))
    }

    /// Says goodbye to everything published and stops answering; the sockets close when the responder goes.
    public func shutdown() {
        guard !isShutDown else { return }
        execute(state.withdrawAll(now: now))
        isShutDown = true
        for source in readiness { source.cancel() }
        readiness = []
        timer.cancel()
    }

    private var now: Instant { clock.now }

    private func watchSockets() {
        guard !isShutDown else { return }
        readiness = sockets.all.map { socket in
            SocketReadiness(descriptor: socket.readinessDescriptor) { [weak self] resume in
                Task {
                    await self?.drain(socket)
                    resume()
                }
            }
        }
    }

    /// Every datagram waiting on `socket`, fed to the state.
    private func drain(_ socket: UDPSocket) {
        guard !isShutDown else { return }
        while let (bytes, sender) = try? socket.receive(maximumLength: MulticastDNSConstants.maximumPacketSize) {
            execute(state.receive(bytes, from: sender, sourcePort: sender.port, now: now))
        }
    }

    private func arm(_ deadline: Instant) {
        timer.arm(deadline, on: clock) { [weak self] deadline in
            await self?.timerFired(deadline)
        }
    }

    private func timerFired(_ deadline: Instant) {
        guard !isShutDown, timer.fired(deadline) else { return }
        execute(state.timerFired(now: now))
    }

    private func execute(_ actions: [MulticastDNSResponderState<SocketAddress>.Action]) {
        for action in actions {
            switch action {
            case .send(let bytes, .multicast): sockets.sendMulticast(bytes)
            case .send(let bytes, .unicast(let address)): sockets.send(bytes, to: address)
            case .armTimer(let instant): arm(instant)
            }
        }
    }
}

/// Per family, one socket on port 5353 joined to the group on each named interface; it receives the
/// queries and sends every answer, so answers leave from port 5353 as RFC 6762 §6 requires.
private struct ResponderSockets: Sendable {
    private let interfaces: [String]
    private let ipv4: UDPSocket
    /// Absent when no named interface has an IPv6 address or IPv6 cannot join there.
    private let ipv6: UDPSocket?
    private let ipv6Interfaces: [String]

    init(interfaces: [String]) throws(SocketError) {
        for name in interfaces { _ = try NetworkInterface.index(named: name) }
        self.interfaces = interfaces
        ipv4 = try Self.socket(.ipv4, group: MulticastDNSConstants.ipv4Group, interfaces: interfaces)
        let ipv6Interfaces = interfaces.filter(NetworkInterface.hasIPv6Address(named:))
        ipv6 =
            ipv6Interfaces.isEmpty
            ? nil
            : try? Self.socket(.ipv6, group: MulticastDNSConstants.ipv6Group(scope: 0), interfaces: ipv6Interfaces)
        self.ipv6Interfaces = ipv6 == nil ? [] : ipv6Interfaces
    }

    /// One copy per interface and family. Datagrams are best effort and mDNS repeats itself, so a path
    /// that cannot carry one (IPv6 multicast on `lo` has no route) is skipped.
    func sendMulticast(_ packet: [UInt8]) {
        for interface in interfaces {
            try? ipv4.setMulticastInterface(interface)
            try? ipv4.send(packet, to: MulticastDNSConstants.ipv4Group)
        }
        guard let ipv6 else { return }
        for interface in ipv6Interfaces {
            guard let index = try? NetworkInterface.index(named: interface) else { continue }
            try? ipv6.setMulticastInterface(interface)
            try? ipv6.send(packet, to: MulticastDNSConstants.ipv6Group(scope: index))
        }
    }

    func send(_ packet: [UInt8], to address: SocketAddress) {
        switch address {
        case .ipv4: try? ipv4.send(packet, to: address)
        case .ipv6: try? ipv6?.send(packet, to: address)
        }
    }

    /// The sockets to wait on.
    var all: [UDPSocket] { [ipv4] + [ipv6].compactMap { $0 } }

    private static func socket(
        _ family: UDPSocket.Family, group: SocketAddress, interfaces: [String]
    ) throws(SocketError) -> UDPSocket {
        let socket = try UDPSocket(family: family)
        try socket.allowPortSharing()
        switch family {
        case .ipv4: try socket.bind(to: .ipv4(MulticastDNSConstants.ipv4Any, port: MulticastDNSConstants.port))
        case .ipv6: try socket.bind(to: .ipv6(MulticastDNSConstants.ipv6Any, port: MulticastDNSConstants.port))
        }
        try socket.receiveOnlyJoinedGroups()
        try socket.setMulticastLoop(true, hopLimit: MulticastDNSConstants.hopLimit)
        for interface in interfaces { try socket.joinMulticastGroup(group, interface: interface) }
        return socket
    }
}
