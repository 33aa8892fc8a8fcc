import Foundation
import HomeRecords
import MatterBTP
import MatterCertificates
import MatterCrypto
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterOnboarding
import MatterPlatform
import MatterSecureChannel
import MatterTLV

/// Carries out the commissioning state machine's steps against a real device: discovery, PASE, the
/// commissioning clusters, attestation, the NOC, network setup, CASE and the interview; undoes what the machine says
/// on failure.
public actor Commissioner {
    typealias Machine = CommissioningStateMachine<CommissionerArtifacts>

    private let authority: FabricAuthority
    private let store: HubStore
    private let transport: MatterTransport
    /// Where the exchanges the device opens on the commissioner's sessions (its interview's reports) go.
    private let router: InteractionRouter
    private let random: any RandomSource
    private let progress: @Sendable (CommissioningProgress) -> Void
    private let discovery: CommissionableDiscovery
    private let operationalDiscovery: OperationalDiscovery
    /// The BTP connections of commissionings over Bluetooth LE, until each commissioning ends.
    private var bluetoothLinks: [BluetoothConnection: BTPConnection] = [:]
    /// The crash tests' hook: after this step the commissioner stops as a killed process would, undoing nothing.
    private var endsAbruptlyAfter: CommissioningStep?
    /// The transport's: step deadlines and the transcript's durations are on the time the transport runs on.
    private var clock: any DriverClock { transport.clock }

    /// Commissions over `transport`; on a transport a node reads (the hub's link), over that node's `router`.
    public init(
        authority: FabricAuthority, store: HubStore, transport: MatterTransport, router: InteractionRouter? = nil,
        random: any RandomSource = SystemRandom(), discovery: @escaping CommissionableDiscovery = mDNSDiscovery,
        operationalDiscovery: @escaping OperationalDiscovery = mDNSOperationalDiscovery,
        progress: @escaping @Sendable (CommissioningProgress) -> Void = { _ in }
    ) {
        self.authority = authority
        self.store = store
        self.transport = transport
        self.router = router ?? InteractionRouter(transport: transport)
        self.random = random
        self.discovery = discovery
        self.operationalDiscovery = operationalDiscovery
        self.progress = progress
    }

    /// Where a commissioning without an address finds devices for its payload: the commissionable nodes that match
    /// the filter on those interfaces, each as it is resolved.
    public typealias CommissionableDiscovery =
        @Sendable (CommissionableFilter, _ interfaces: [String]) -> AsyncThrowingStream<CommissionableNode, any Error>

    /// DNS-SD over mDNS (Matter Core §4.3.1), browsing for `HubTiming.commissionableBrowse` at most.
    public static let mDNSDiscovery: CommissionableDiscovery = { filter, interfaces in
        MulticastDNSQuerier().commissionableMatches(
            filter, interfaces: interfaces, timeout: HubTiming.commissionableBrowse)
    }

    /// Where the device's operational record is resolved once it holds our NOC: its addresses on those interfaces.
    public typealias OperationalDiscovery =
        @Sendable (OperationalPeerID, _ interfaces: [String]) async throws -> [SocketAddress]

    /// DNS-SD over mDNS (Matter Core §4.3.2) on `interfaces`, for `HubTiming.operationalResolve` at most.
    public static let mDNSOperationalDiscovery: OperationalDiscovery = { peer, interfaces in
        guard !interfaces.isEmpty else {
            throw CommissioningFailure(.hubFailure, "no interface to browse for it on (--interface)")
        }
        return try await MulticastDNSQuerier().resolveOperational(
            peer, interfaces: interfaces, timeout: HubTiming.operationalResolve
        ).socketAddresses
    }

    /// Makes `commission` stop right after `step`, leaving the device and the store as a process killed there would
    /// (sessions are not closed, as the process's death would leave them).
    @_spi(CrashTesting) public func endAbruptly(after step: CommissioningStep) {
        endsAbruptlyAfter = step
    }

    /// PASE was refused as BUSY while a fail-safe this hub armed in an earlier, interrupted attempt still holds the
    /// device: it frees itself at `expiry`, so the step is run again then, once.
    private struct HeldByEarlierAttempt: Error {
        let expiry: Date
    }

    /// The name a device gets when neither the caller nor the device's Basic Information gives one.
    static let defaultDeviceName = "Matter device"

    /// Commissions the device and, in the same store transaction that makes its node commissioned, adds its devices
    /// named `name` (default: the product's name) in `room`: no reader ever sees the node without its devices.
    public func commission(
        _ request: CommissioningRequest, name: String? = nil, room: String? = nil
    ) async throws(CommissioningError) -> CommissioningResult {
        let started = clock.now
        var machine = Machine(
            options: .init(
                link: request.bluetooth == nil ? .ip : .bluetoothLE, address: request.address,
                networks: request.networks, acceptUntrustedDevice: request.acceptUntrustedDevice))
        var bluetoothLink: BluetoothConnection?
        defer {
            // The BLE connection served PASE and network setup only: the device is on IP from then on.
            if let bluetoothLink, let link = bluetoothLinks.removeValue(forKey: bluetoothLink) {
                Task { await link.close() }
            }
        }
        var durations: [(CommissioningStep, Duration)] = []
        var nodeID: UInt64?
        /// Set once PASE has waited out an earlier attempt's fail-safe: a device still BUSY after that is not held
        /// by this hub, and is not waited for again.
        var waitedForEarlierAttempt = false
        var fallbacks: CommissionableCandidates?
        var action = machine.start()
        while let step = action.step {
            if case .establishPASE(_, let candidates) = action { fallbacks = candidates }
            progress(.started(step))
            let stepStart = clock.now
            do {
                let (running, waited) = (action, waitedForEarlierAttempt)
                let result = try await withDeadline(step.timeout, on: clock) { [self] in
                    try await self.run(running, request, waitedForEarlierAttempt: waited)
                }
                let duration = clock.now - stepStart
                durations.append((step, duration))
                progress(.finished(step, duration))
                if case .bluetoothConnected(let connection) = result { bluetoothLink = connection }
                action = machine.succeeded(result)
                // From AddNOC on the node's row says how far it got: what a restart after a crash goes by.
                nodeID = machine.nodeID ?? nodeID
                if let nodeID { try? await store.recordStep(step, of: nodeID) }
            } catch let held as HeldByEarlierAttempt {
                // Outside the step's deadline: the wait is the device's fail-safe, not the step.
                await waitForFailSafe(until: held.expiry)
                waitedForEarlierAttempt = true
                continue
            } catch is StepTimeout {
                action = machine.failed(step, CommissioningFailure(.noAnswer, "no answer within \(step.timeout)"))
            } catch let error as AttestationFailure {
                let failure = CommissioningFailure(.untrustedDevice, error.description)
                if request.acceptUntrustedDevice {
                    progress(.note("attestation failed, accepted because of --accept-untrusted-device: \(failure)"))
                }
                action = machine.attestationFailed(error.result, failure)
            } catch {
                action = machine.failed(step, await failure(error, of: step, over: bluetoothLink))
            }
            if step == endsAbruptlyAfter, durations.last?.0 == step {
                throw .stepFailed(step, CommissioningFailure(.hubFailure, "ended abruptly after \(step)"))
            }
            if action.step != .passcodeSession, let candidates = fallbacks {
                await candidates.stop()
                fallbacks = nil
            }
        }
        switch action {
        case .finish(let commissioned):
            return try await finish(
                commissioned, name: name, room: room, steps: durations, elapsed: clock.now - started)
        case .fail(let error, let undo):
            await self.undo(undo)
            throw error
        default:
            throw .outOfOrder(nil, expected: nil)
        }
    }

    /// Why `step` failed: a step over a Bluetooth LE connection that ended meanwhile failed because it ended, whatever
    /// the exchange it ran saw (an unknown session, no answer).
    private func failure(
        _ error: any Error, of step: CommissioningStep, over connection: BluetoothConnection?
    ) async -> CommissioningFailure {
        if step <= .networkSetup, let connection, let link = bluetoothLinks[connection],
            let ended = await link.ended
        {
            return CommissioningFailure(.noAnswer, "the Bluetooth LE connection to the device ended: \(ended)")
        }
        return CommissioningFailure(error)
    }

    /// Stores the commissioned node and its devices; a store that refuses has the device leave our fabric.
    private func finish(
        _ commissioned: Machine.Commissioned, name: String?, room: String?,
        steps: [(CommissioningStep, Duration)], elapsed: Duration
    ) async throws(CommissioningError) -> CommissioningResult {
        let operational = commissioned.operational
        let enrolled = operational.enrolled
        if let failure = commissioned.interviewFailure {
            progress(.note("commissioned, but reading the device's information failed: \(failure)"))
        }
        guard let identity = identity(enrolled.attested.attestation, commissioned.description) else {
            await undo(Machine.Undo(secured: enrolled.secured, enrolled: enrolled, operational: operational))
            throw .stepFailed(
                .interview,
                CommissioningFailure(.hubFailure, "neither attestation nor the interview said who the device is"))
        }
        // Where the node answered CASE, and the MRP intervals it advertised there (none kept when it advertised none).
        let established = operational.session.established
        let mrpParameters = established.peerParameters.map { _ in established.mrpParameters }
        let devices: [DeviceID]
        do {
            devices = try await store.finishCommissioning(
                enrolled.nodeID, description: commissioned.description, addresses: [operational.address],
                mrpParameters: mrpParameters,
                deviceName: name ?? commissioned.description?.productName ?? Self.defaultDeviceName, room: room)
        } catch {
            // The store refused (the session was cancelled meanwhile, or the disk failed): the device must not stay
            // on a fabric whose hub forgot it.
            await leaveFabric(operational)
            await closeSessions(pase: enrolled.secured, operational: operational)
            try? await store.deleteNode(enrolled.nodeID)
            throw .stepFailed(.interview, CommissioningFailure(error))
        }
        await closeSessions(pase: enrolled.secured, operational: operational)
        // CommissioningComplete disarmed the fail-safe.
        if let address = enrolled.secured.udpAddress { store.failSafeEnded(at: address) }
        return CommissioningResult(
            nodeID: enrolled.nodeID, vendorID: identity.vendorID, productID: identity.productID,
            description: commissioned.description, attestation: enrolled.attested.record, stepDurations: steps,
            elapsed: elapsed, devices: devices)
    }

    // MARK: Steps

    /// Carries out one step with what the machine handed it, and says what it learned.
    private func run(
        _ action: Machine.Action, _ request: CommissioningRequest, waitedForEarlierAttempt: Bool
    ) async throws -> Machine.StepResult {
        switch action {
        case .discover:
            if let central = request.bluetooth {
                let peripheral = try await findOverBluetooth(request, through: central)
                progress(.note("found \(peripheral) over Bluetooth LE through \(central.name)"))
                return .foundOverBluetooth(peripheral)
            }
            let (address, fallbacks) = try await discover(request)
            return .discovered(address, fallbacks: fallbacks)

        case .connectBluetooth(let peripheral):
            guard let central = request.bluetooth else {
                throw CommissioningFailure(.hubFailure, "internal error: a Bluetooth step without a central")
            }
            let link: BTPConnection
            do {
                link = try await central.connect(peripheral, transport: transport)
            } catch {
                throw CommissioningFailure(.noAnswer, "\(peripheral.address) over \(central.name): \(error)")
            }
            bluetoothLinks[link.connection] = link
            progress(.note("BTP session with \(peripheral.address): segments of \(await link.segmentSize ?? 0) bytes"))
            return .bluetoothConnected(link.connection)

        case .establishPASE(.udp(let address), let fallbacks):
            let (pase, answered) = try await establishPASE(
                at: address, fallbacks: fallbacks, request, waitedForEarlierAttempt: waitedForEarlierAttempt)
            // Establishing PASE armed the device's fail-safe (Matter Core §5.5), for as long as ArmFailSafe will.
            store.failSafeArmed(at: answered, seconds: HubConstants.failSafeSeconds)
            return .paseEstablished(pase, at: .udp(answered))

        case .establishPASE(let address, _):
            // Over BLE: one device, one connection, no fallbacks.
            let pase = try await SessionEstablishment.pase(
                with: address, passcode: request.payload.passcode, over: transport, random: random)
            return .paseEstablished(pase, at: address)

        case .armFailSafe(let secured):
            let response = try await client(secured.pase).invoke(
                GeneralCommissioningCluster.Commands.ArmFailSafe(
                    expiryLengthSeconds: HubConstants.failSafeSeconds, breadcrumb: 1),
                endpoint: 0)
            try check(response.errorCode, response.debugText)
            if let address = secured.udpAddress {
                store.failSafeArmed(at: address, seconds: HubConstants.failSafeSeconds)
            }
            return .done

        case .setRegulatoryConfig(let secured):
            let response = try await client(secured.pase).invoke(
                GeneralCommissioningCluster.Commands.SetRegulatoryConfig(
                    newRegulatoryConfig: .indoorOutdoor, countryCode: HubConstants.regulatoryCountryCode, breadcrumb: 2),
                endpoint: 0)
            try check(response.errorCode, response.debugText)
            return .done

        case .attest(let secured):
            return .attested(try await attest(request, secured))

        case .requestSigningRequest(let attested):
            guard let dacKey = attested.attestation.facts?.dacPublicKey else {
                throw CommissioningFailure(.refused, "the device's DAC could not be read, so its CSR cannot be checked")
            }
            let nonce = random.bytes(32)
            let response = try await client(attested.secured.pase).invoke(
                OperationalCredentialsCluster.Commands.CSRRequest(csrNonce: nonce), endpoint: 0)
            return .signingRequestVerified(
                try NOCSRVerification.verify(
                    nocsrElements: response.nocsrElements, attestationSignature: response.attestationSignature,
                    attestationChallenge: attested.secured.pase.established.keys.attestationChallenge,
                    csrNonce: nonce, dacPublicKey: dacKey))

        case .addTrustedRoot(let secured):
            try await refuseIfAlreadyOnOurFabric(secured)
            _ = try await client(secured.pase).invoke(
                OperationalCredentialsCluster.Commands.AddTrustedRootCertificate(
                    rootCACertificate: authority.rootCertificateTLV), endpoint: 0)
            return .done

        case .addNOC(let attested, let csr):
            let nodeID = try await authority.allocateNodeID()
            let (noc, icac) = try authority.issueNOC(for: csr, nodeID: nodeID)
            let identity = identity(attested.attestation, nil)
            // The row goes in before AddNOC, so a crash from here on leaves a trace to roll back.
            try await store.beginCommissioning(
                nodeID: nodeID, vendorID: identity?.vendorID ?? 0, productID: identity?.productID ?? 0,
                attestation: attested.record, addresses: attested.secured.udpAddress.map { [$0] } ?? [],
                session: request.session)
            do {
                let fabricIndex = try await addNOC(noc: noc, icac: icac, over: attested.secured)
                return .nocAdded(nodeID: nodeID, fabricIndex: fabricIndex)
            } catch {
                // The machine knows no node until AddNOC answered, so its row goes here; the fail-safe's expiry
                // undoes the device's side should AddNOC have succeeded without its answer reaching us.
                try? await store.deleteNode(nodeID)
                throw error
            }

        case .setUpNetwork(let enrolled, let networks):
            let client = client(enrolled.secured.pase)
            let network = try await network(for: client, among: networks)
            if request.scanNetworks { try await scanFor(network, over: client) }
            try await setUpNetwork(network, over: client)
            progress(.note("the device joined the \(network.networkDescription)"))
            return .done

        case .discoverOperational(let enrolled):
            return .operationalFound(try await discoverOperational(request, enrolled))

        case .establishCASE(let enrolled, let address):
            let session = try await SessionEstablishment.case(
                with: address, nodeID: enrolled.nodeID, credentials: authority.operationalCredentials,
                validator: authority.peerValidator, over: transport, random: random)
            return .caseEstablished(session, at: address)

        case .completeCommissioning(let operational):
            let response = try await client(operational.session).invoke(
                GeneralCommissioningCluster.Commands.CommissioningComplete(), endpoint: 0)
            try check(response.errorCode, response.debugText)
            return .done

        case .interview(let operational):
            let client = client(operational.session)
            let interview = try await NodeInterview.interview(client)
            // The node's first attribute cache: a one-shot command right after this one knows what each endpoint
            // serves without waiting for the live subscription.
            await store.saveAttributeCaches([operational.enrolled.nodeID: interview.cache])
            // Other ecosystems' "connected apps" lists name us by our fabric's label: the home's name. Best effort:
            // a device that refuses a label is still commissioned.
            if let home = try? await store.structures().first?.name {
                _ = try? await client.invoke(
                    OperationalCredentialsCluster.Commands.UpdateFabricLabel(label: FabricLabel.of(home: home)),
                    endpoint: 0)
            }
            return .interviewed(interview.description)

        case .finish, .fail:
            throw CommissioningFailure(.hubFailure, "internal error: \(action) is not a step")
        }
    }

    /// PASE with the device at `address`; when it gets no answer or a wrong passcode, with the next device discovery
    /// found for the payload (two devices may share a short discriminator). Returns the session and the address
    /// that answered.
    private func establishPASE(
        at address: SocketAddress, fallbacks: CommissionableCandidates?, _ request: CommissioningRequest,
        waitedForEarlierAttempt: Bool
    ) async throws -> (SessionEstablishment.Result, SocketAddress) {
        var address = address
        var graceTries = waitedForEarlierAttempt ? HubTiming.failSafeGraceTries : 0
        while true {
            do {
                let session = try await SessionEstablishment.pase(
                    with: .udp(address), passcode: request.payload.passcode, over: transport, random: random)
                return (session, address)
            } catch {
                let failure = CommissioningFailure(error)
                if failure.kind == .deviceBusy, graceTries > 0 {
                    graceTries -= 1
                    progress(.note("the device is still BUSY: asking again in \(HubTiming.failSafeGracePause.spoken)"))
                    try? await clock.sleep(for: HubTiming.failSafeGracePause)
                    continue
                }
                if failure.kind == .deviceBusy, let known = try? await explainBusy(at: address) {
                    switch known {
                    case .explained(let failure): throw failure
                    case .heldByUs(let expiry) where !waitedForEarlierAttempt:
                        throw HeldByEarlierAttempt(expiry: expiry)
                    case .heldByUs: break
                    }
                }
                guard failure.kind == .noAnswer || failure.kind == .wrongPasscode,
                    let next = await fallbacks?.next(), let nextAddress = next.socketAddresses.first
                else { throw error }
                progress(
                    .note(
                        "PASE with the device at \(address) failed (\(failure)); trying \(next.instanceName) at \(nextAddress)"
                    ))
                address = nextAddress
            }
        }
    }

    /// Matter Core §11.9.7.1: the device scans (a Wi-Fi scan for the network's SSID alone); a network it does not see
    /// fails network setup before any credentials are given, naming what it does see.
    private func scanFor(_ network: NetworkCredentials, over client: InteractionClient) async throws {
        typealias Commands = NetworkCommissioningCluster.Commands
        let scan: Commands.ScanNetworks
        switch network {
        case .wifi(let ssid, _): scan = Commands.ScanNetworks(ssid: .value(ssid), breadcrumb: 3)
        case .thread: scan = Commands.ScanNetworks(breadcrumb: 3)
        }
        let response = try await client.invoke(scan, endpoint: 0, timeout: HubTiming.networkScan)
        guard response.networkingStatus == .success else {
            throw CommissioningFailure(
                .refused,
                "the device could not scan for networks: \(response.networkingStatus)\(response.debugText.map { " (\($0))" } ?? "")"
            )
        }
        switch network {
        case .wifi(let ssid, _):
            let seen = response.wiFiScanResults ?? []
            guard let found = seen.first(where: { $0.ssid == ssid }) else {
                throw CommissioningFailure(.deviceNotFound, "the device does not see the \(network.networkDescription)")
            }
            progress(.note("the device sees the \(network.networkDescription) at \(found.rssi) dBm"))
        case .thread(let dataset):
            let extendedPANID = (try? ThreadOperationalDataset.extendedPANID(of: dataset)) ?? []
            let seen = response.threadScanResults ?? []
            guard
                let found = seen.first(where: {
                    $0.extendedPanId == extendedPANID.reduce(0) { $0 << 8 | UInt64($1) }
                })
            else {
                throw CommissioningFailure(
                    .deviceNotFound,
                    "the device does not see the \(network.networkDescription) (it sees \(seen.count) other Thread networks)"
                )
            }
            progress(
                .note("the device sees the \(network.networkDescription) (\(found.networkName)) at \(found.rssi) dBm"))
        }
    }

    /// Matter Core §11.9.7.3, §11.9.7.4 and §11.9.7.9: the network's credentials, then ConnectNetwork; the device
    /// answers once it joined, or says why it could not.
    private func setUpNetwork(_ network: NetworkCredentials, over client: InteractionClient) async throws {
        typealias Commands = NetworkCommissioningCluster.Commands
        let networkID: [UInt8], added: Commands.NetworkConfigResponse
        let name = network.networkDescription
        switch network {
        case .wifi(let ssid, let credentials):
            networkID = ssid
            added = try await client.invoke(
                Commands.AddOrUpdateWiFiNetwork(ssid: ssid, credentials: credentials, breadcrumb: 3), endpoint: 0)
        case .thread(let dataset):
            do {
                networkID = try ThreadOperationalDataset.extendedPANID(of: dataset)
            } catch {
                throw CommissioningFailure(.refused, error.description)
            }
            added = try await client.invoke(
                Commands.AddOrUpdateThreadNetwork(operationalDataset: dataset, breadcrumb: 3), endpoint: 0)
        }
        guard added.networkingStatus == .success else {
            throw CommissioningFailure(
                .refused,
                "the device refused the \(name): \(added.networkingStatus)\(added.debugText.map { " (\($0))" } ?? "")")
        }
        let joined = try await client.invoke(Commands.ConnectNetwork(networkID: networkID, breadcrumb: 4), endpoint: 0)
        guard joined.networkingStatus == .success else {
            throw CommissioningFailure(
                .refused,
                "the device could not join the \(name): \(joined.networkingStatus)\(joined.debugText.map { " (\($0))" } ?? "")"
            )
        }
    }

    /// The first device discovery resolves for the payload, at once; the discovery goes on briefly for fallbacks.
    private func discover(
        _ request: CommissioningRequest
    ) async throws -> (SocketAddress, CommissionableCandidates) {
        guard !request.interfaces.isEmpty else {
            throw CommissioningFailure(
                .hubFailure,
                "no address given and no interface to discover the device on (use --address or --interface)")
        }
        let filter: CommissionableFilter =
            switch request.payload.discriminator {
            case .long(let value): .longDiscriminator(value)
            case .short(let value): .shortDiscriminator(value)
            }
        let candidates = CommissionableCandidates(discovery(filter, request.interfaces))
        while let node = await candidates.next() {
            if let address = node.socketAddresses.first { return (address, candidates) }
        }
        throw CommissioningFailure(
            .deviceNotFound,
            "no commissionable device with discriminator \(request.payload.discriminator.value)"
                + "\(request.payload.discriminator.isShort ? " (short)" : "") answered on \(request.interfaces.joined(separator: ", "))"
        )
    }

    private func discoverOperational(
        _ request: CommissioningRequest, _ enrolled: Machine.Enrolled
    ) async throws -> SocketAddress {
        let peer = OperationalPeerID(compressedFabricID: authority.compressedFabricIDNumber, nodeID: enrolled.nodeID)
        // Over IP the device keeps answering where it was commissioned; over BLE it has no other IP address.
        guard let commissioningAddress = enrolled.secured.udpAddress else {
            do {
                if let address = try await operationalDiscovery(peer, request.interfaces).first { return address }
            } catch {
                let place = request.interfaces.isEmpty ? "" : " on " + request.interfaces.joined(separator: ", ")
                throw CommissioningFailure(
                    .deviceNotFound,
                    "the device joined the network but did not appear on IP: \(peer.instanceName) not found\(place) (\(error))"
                )
            }
            throw CommissioningFailure(
                .deviceNotFound,
                "the device joined the network but did not appear on IP: \(peer.instanceName) has no address")
        }
        // No mDNS allowed: the device keeps answering where it was commissioned.
        guard !request.interfaces.isEmpty else { return commissioningAddress }
        do {
            if let address = try await operationalDiscovery(peer, request.interfaces).first { return address }
        } catch {
            progress(
                .note("operational record \(peer.instanceName) not found (\(error)); using the commissioning address"))
        }
        return commissioningAddress
    }

    /// Matter Core §5.4.2.5.6: the device of the payload, by its discriminator in the BLE advertisement.
    private func findOverBluetooth(
        _ request: CommissioningRequest, through central: any BluetoothCentral
    ) async throws -> BluetoothPeripheral {
        let discriminator = request.payload.discriminator
        let matches: @Sendable (MatterBLEAdvertisement) -> Bool =
            switch discriminator {
            case .long(let value): { $0.matches(longDiscriminator: value) }
            case .short(let value): { $0.matches(shortDiscriminator: value) }
            }
        do {
            // Within the step's own limit, so the scan's answer (why nothing was found) is the one the user reads.
            return try await central.find(
                matching: matches, timeout: CommissioningStep.discovery.timeout - HubTiming.bluetoothScanMargin)
        } catch {
            let kind: CommissioningFailure.Kind =
                if case .unavailable = error { .hubFailure } else { .deviceNotFound }
            throw CommissioningFailure(
                kind,
                "no device with discriminator \(discriminator.value)\(discriminator.isShort ? " (short)" : "") over Bluetooth LE: \(error)"
            )
        }
    }

    /// Matter Core §11.9.5: the network the device's interface takes (its Network Commissioning cluster's feature on
    /// endpoint 0), among those the hub holds; a device whose kind the hub holds none of is told apart.
    private func network(
        for client: InteractionClient, among networks: [NetworkCredentials]
    ) async throws -> NetworkCredentials {
        let featureMap = NetworkCommissioningCluster.Attributes.featureMap
        var cache = AttributeCache()
        cache.apply(try await client.read([featureMap.path(endpoint: 0)]).attributeReports)
        guard let feature = try cache.value(featureMap, endpoint: 0) else {
            throw CommissioningFailure(.refused, "the device has no Network Commissioning cluster on endpoint 0")
        }
        let wifi = networks.first { if case .wifi = $0 { true } else { false } }
        let thread = networks.first { if case .thread = $0 { true } else { false } }
        if feature.contains(.wiFiNetworkInterface), let wifi { return wifi }
        if feature.contains(.threadNetworkInterface), let thread { return thread }
        let kind =
            feature.contains(.wiFiNetworkInterface)
            ? "Wi-Fi, and the hub has no Wi-Fi credentials (home network wifi SSID --password-file FILE)"
            : feature.contains(.threadNetworkInterface)
                ? "Thread, and the hub has no Thread dataset (home network thread --dataset-file FILE)"
                : "neither Wi-Fi nor Thread (an Ethernet device needs no network setup)"
        throw CommissioningFailure(.refused, "the device joins \(kind)")
    }

    /// The attestation result; throws when the device is untrusted (after recording what it learned in `result`).
    private func attest(_ request: CommissioningRequest, _ secured: Machine.Secured) async throws -> AttestationResult {
        let client = client(secured.pase)
        typealias CertificateChainRequest = OperationalCredentialsCluster.Commands.CertificateChainRequest
        let dac = try await client.invoke(CertificateChainRequest(certificateType: .dacCertificate), endpoint: 0)
            .certificate
        let pai = try await client.invoke(CertificateChainRequest(certificateType: .paiCertificate), endpoint: 0)
            .certificate
        // Matter Core §6.2.3: the declaration must cover the VendorID and ProductID the device itself declares.
        let vendorID = BasicInformationCluster.Attributes.vendorID,
            productID = BasicInformationCluster.Attributes.productID
        var basicInformation = AttributeCache()
        basicInformation.apply(
            try await client.read([vendorID.path(endpoint: 0), productID.path(endpoint: 0)]).attributeReports)
        let nonce = random.bytes(32)
        let response = try await client.invoke(
            OperationalCredentialsCluster.Commands.AttestationRequest(attestationNonce: nonce), endpoint: 0)
        let verifier = DeviceAttestationVerifier(
            trustStore: request.trustStore, developmentMode: request.developmentMode)
        let result = verifier.verify(
            dac: dac, pai: pai, attestationElements: response.attestationElements,
            attestationSignature: response.attestationSignature,
            attestationChallenge: secured.pase.established.keys.attestationChallenge, nonce: nonce,
            deviceVendorID: try basicInformation.value(vendorID, endpoint: 0),
            deviceProductID: try basicInformation.value(productID, endpoint: 0),
            now: Int64(Date().timeIntervalSince1970))
        if case .untrusted(let reasons) = result.verdict {
            throw AttestationFailure(result: result, reasons: reasons.map { "\($0)" })
        }
        return result
    }

    /// Matter Core §11.18.6.8 AddNOC: the fabric index the device gave our fabric.
    private func addNOC(noc: [UInt8], icac: [UInt8]?, over secured: Machine.Secured) async throws -> UInt8? {
        let response = try await client(secured.pase).invoke(
            OperationalCredentialsCluster.Commands.AddNOC(
                nocValue: noc, icacValue: icac, ipkValue: authority.fabric.ipkEpochKey,
                caseAdminSubject: authority.caseAdminSubject, adminVendorId: FabricAuthority.adminVendorID), endpoint: 0
        )
        guard response.statusCode == .ok else {
            let kind: CommissioningFailure.Kind =
                switch response.statusCode {
                case .tableFull: .fabricTableFull
                case .fabricConflict: .alreadyCommissioned
                default: .refused
                }
            throw CommissioningFailure(
                kind, "the device refused the NOC: \(response.statusCode)\(response.debugText.map { " (\($0))" } ?? "")"
            )
        }
        return response.fabricIndex
    }

    /// A device already on the hub's fabric (commissioned before, then its window opened again) would only answer
    /// AddNOC with FabricConflict; saying so before touching it is clearer. The Fabrics list (Matter Core §11.18.5.1,
    /// read unfiltered) decides, not TrustedRootCertificates: CircuitMatter keeps a removed fabric's root there.
    private func refuseIfAlreadyOnOurFabric(_ secured: Machine.Secured) async throws {
        let fabrics = OperationalCredentialsCluster.Attributes.fabrics
        let report = try await client(secured.pase).read([fabrics.path(endpoint: 0)], isFabricFiltered: false)
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        let ours = try cache.value(fabrics, endpoint: 0)?.first {
            $0.rootPublicKey == authority.rootCertificate.publicKey && $0.fabricID == authority.fabricID
        }
        if let ours {
            throw CommissioningFailure(
                .alreadyCommissioned,
                "the device is already commissioned to this hub, as node \(String(ours.nodeID, radix: 16, uppercase: true))",
                node: ours.nodeID)
        }
    }

    // MARK: Undoing

    private func undo(_ undo: Machine.Undo) async {
        if let secured = undo.secured {
            let client = client(secured.pase)
            if let fabricIndex = undo.enrolled?.fabricIndex {
                _ = try? await client.invoke(
                    OperationalCredentialsCluster.Commands.RemoveFabric(fabricIndex: fabricIndex), endpoint: 0,
                    timeout: HubTiming.rollbackStep)
            }
            // Expiring the fail-safe makes the device undo everything done under it (§11.10.7.2.2); a device that
            // did not hear it stays held until the fail-safe expires, as the store goes on saying.
            let disarmed = try? await client.invoke(
                GeneralCommissioningCluster.Commands.ArmFailSafe(expiryLengthSeconds: 0, breadcrumb: 0), endpoint: 0,
                timeout: HubTiming.rollbackStep)
            if disarmed?.errorCode == .ok, let address = secured.udpAddress { store.failSafeEnded(at: address) }
        }
        if let enrolled = undo.enrolled { try? await store.deleteNode(enrolled.nodeID) }
        await closeSessions(pase: undo.secured, operational: undo.operational)
    }

    /// After CommissioningComplete, the fail-safe no longer undoes anything: RemoveFabric over the CASE session does.
    private func leaveFabric(_ operational: Machine.Operational) async {
        guard let fabricIndex = operational.enrolled.fabricIndex else { return }
        _ = try? await client(operational.session).invoke(
            OperationalCredentialsCluster.Commands.RemoveFabric(fabricIndex: fabricIndex), endpoint: 0,
            timeout: HubTiming.rollbackStep)
    }

    /// What the store knows of a device that answered PASE with BUSY.
    private enum BusyDevice {
        /// Nothing to wait for: why it is busy, for the user.
        case explained(CommissioningFailure)
        /// A fail-safe an earlier attempt of this hub armed holds it until `expiry`.
        case heldByUs(expiry: Date)
    }

    /// What the store knows of a device that answered PASE with BUSY at `address`: already on this hub, or held by a
    /// fail-safe an earlier attempt of this hub armed (before AddNOC, or after it in a row that never completed) and
    /// that has not expired yet; nil when it knows nothing of it.
    private func explainBusy(at address: SocketAddress) async throws -> BusyDevice? {
        let nodes = try await store.nodes().filter { $0.addresses.contains(address) }
        if let ours = nodes.first(where: { $0.state == .commissioned }) {
            return .explained(
                CommissioningFailure(
                    .alreadyCommissioned,
                    "the device at \(address) is already on this hub, as node \(String(format: "%016llX", ours.nodeID)) (see home devices); "
                        + "its commissioning window is closed", node: ours.nodeID))
        }
        let rowExpiries = nodes.filter { !($0.stepReached.map { $0 >= .commissioningComplete } ?? false) }.map {
            $0.updatedAt.addingTimeInterval(Double(HubConstants.failSafeSeconds))
        }
        let expiry = ([try await store.failSafeExpiry(at: address)].compactMap { $0 } + rowExpiries).max()
        guard let expiry, expiry > Date() else { return nil }
        return .heldByUs(expiry: expiry)
    }

    /// Waits until an earlier attempt's fail-safe has expired (at most the fail-safe's length, and a second for the
    /// device to drop that attempt's PASE session), telling how long every `HubTiming.failSafeWaitProgress`.
    private func waitForFailSafe(until expiry: Date) async {
        let seconds = min(Int(expiry.timeIntervalSinceNow.rounded(.up)), Int(HubConstants.failSafeSeconds)) + 1
        progress(
            .note(
                "the device is still in a commissioning an earlier attempt of this hub started (it was interrupted); "
                    + "it frees itself when that attempt's fail-safe expires: waiting \(seconds) s, then trying again"))
        var left = Duration.seconds(seconds)
        while left > .zero {
            let pause = min(left, HubTiming.failSafeWaitProgress)
            guard (try? await clock.sleep(for: pause)) != nil else { return }
            left -= pause
            if left > .zero { progress(.note("waiting for the device's fail-safe: \(left.components.seconds) s left")) }
        }
    }

    private func closeSessions(pase secured: Machine.Secured?, operational: Machine.Operational?) async {
        if let secured { await transport.removeSession(secured.pase.session) }
        // The commissioner's own CASE session (its interview's subscription with it) is not the hub's live one.
        if let operational { await transport.closeSession(operational.session.session) }
    }

    // MARK: Helpers

    private func client(_ session: SessionEstablishment.Result) -> InteractionClient {
        InteractionClient(
            transport: transport, session: session.session, peerParameters: session.established.mrpParameters,
            router: router)
    }

    private func check(_ code: GeneralCommissioningCluster.CommissioningErrorEnum, _ debugText: String) throws {
        guard code == .ok else {
            throw CommissioningFailure(
                .refused, "the device answered \(code)\(debugText.isEmpty ? "" : " (\(debugText))")")
        }
    }

    /// Who the device is: from its DAC when attestation read it, else from its interview.
    private func identity(
        _ attestation: AttestationResult, _ description: NodeDescription?
    ) -> (vendorID: UInt16, productID: UInt16)? {
        if let facts = attestation.facts, let vendorID = facts.vendorID, let productID = facts.productID {
            return (vendorID, productID)
        }
        return description.map { ($0.vendorID, $0.productID) }
    }
}

/// `withDeadline`'s limit passed.
struct StepTimeout: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no answer within \(limit.spoken)" }
}

/// Attestation failed; the result still carries what was learned (the DAC key), for a user who accepts the device.
struct AttestationFailure: Error, CustomStringConvertible {
    let result: AttestationResult
    let reasons: [String]
    var description: String { "the device is not a certified Matter device: " + reasons.joined(separator: "; ") }
}

/// Runs `body`, abandoning it with `StepTimeout` after `limit` on `clock`.
func withDeadline<T: Sendable>(
    _ limit: Duration, on clock: any DriverClock = SystemClock(), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await clock.sleep(for: limit)
            throw StepTimeout(limit: limit)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw StepTimeout(limit: limit) }
        return first
    }
}

/// What the commissioner's steps produce: real sessions, attestation results and verified CSRs.
enum CommissionerArtifacts: CommissioningArtifacts {
    typealias Session = SessionEstablishment.Result
    typealias Attestation = AttestationResult
    typealias SigningRequest = CertificateSigningRequest
    typealias Fallbacks = CommissionableCandidates
}
