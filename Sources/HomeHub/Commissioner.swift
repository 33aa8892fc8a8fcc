import Foundation
import MatterCertificates
import MatterCrypto
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterOnboarding
import MatterPlatform
import MatterSecureChannel
import MatterTLV

/// Carries out the commissioning state machine's steps against a real device: discovery, PASE, the
/// commissioning clusters, attestation, the NOC, CASE and the interview; undoes what it must on failure.
public actor Commissioner {
    private let authority: FabricAuthority
    private let store: HubStore
    private let transport: MatterTransport
    private let random: any RandomSource
    private let progress: @Sendable (CommissioningProgress) -> Void
    private let discovery: CommissionableDiscovery
    /// The crash tests' hook: after this step the commissioner stops as a killed process would, undoing nothing.
    private var endsAbruptlyAfter: CommissioningStep?
    /// The transport's: step deadlines and the transcript's durations are on the time the transport runs on.
    private var clock: any DriverClock { transport.clock }

    public init(
        authority: FabricAuthority, store: HubStore, transport: MatterTransport,
        random: any RandomSource = SystemRandom(), discovery: @escaping CommissionableDiscovery = mDNSDiscovery,
        progress: @escaping @Sendable (CommissioningProgress) -> Void = { _ in }
    ) {
        self.authority = authority
        self.store = store
        self.transport = transport
        self.random = random
        self.discovery = discovery
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

    /// Makes `commission` stop right after `step`, leaving the device and the store as a process killed there would
    /// (sessions are not closed: the caller shuts the transport down, as the process's death would).
    @_spi(CrashTesting) public func endAbruptly(after step: CommissioningStep) {
        endsAbruptlyAfter = step
    }

    /// What the steps learn, handed from one to the next.
    private struct Context: Sendable {
        var address: SocketAddress?
        /// The other devices discovery found for the payload, for a PASE that fails.
        var candidates: CommissionableCandidates?
        var pase: SessionEstablishment.Result?
        var paseClient: InteractionClient?
        var attestation: AttestationResult?
        var attestationRecord = NodeRecord.Attestation(verdict: "trusted", trusted: true)
        var csr: CertificateSigningRequest?
        var nodeID: UInt64?
        var fabricIndex: UInt8?
        var operationalAddress: SocketAddress?
        var caseSession: SessionEstablishment.Result?
        var description: NodeDescription?
        var durations: [(CommissioningStep, Duration)] = []
        /// Set once PASE has waited out an earlier attempt's fail-safe: a device still BUSY after that is not held
        /// by this hub, and is not waited for again.
        var waitedForEarlierAttempt = false
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
        var machine = CommissioningStateMachine(
            options: .init(
                addressKnown: request.address != nil, acceptUntrustedDevice: request.acceptUntrustedDevice))
        var context = Context(address: request.address)
        var action = machine.start()
        while true {
            switch action {
            case .run(let step):
                progress(.started(step))
                let stepStart = clock.now
                do {
                    let before = context
                    context = try await withDeadline(step.timeout, on: clock) { [self] in
                        try await self.perform(step, request, before)
                    }
                    let duration = clock.now - stepStart
                    context.durations.append((step, duration))
                    progress(.finished(step, duration))
                    // From AddNOC on the node's row says how far it got: what a restart after a crash goes by.
                    if let nodeID = context.nodeID { try? await store.recordStep(step, of: nodeID) }
                    action = machine.succeeded(step)
                } catch let held as HeldByEarlierAttempt {
                    // Outside the step's deadline: the wait is the device's fail-safe, not the step.
                    await waitForFailSafe(until: held.expiry)
                    context.waitedForEarlierAttempt = true
                    continue
                } catch is StepTimeout {
                    action = machine.failed(step, CommissioningFailure(.noAnswer, "no answer within \(step.timeout)"))
                } catch let error as AttestationFailure {
                    context.attestation = error.result
                    let failure = CommissioningFailure(.untrustedDevice, error.description)
                    if request.acceptUntrustedDevice {
                        context.attestationRecord = .init(
                            verdict: "accepted by the user although attestation failed: \(failure)", trusted: false)
                        progress(.note("attestation failed, accepted because of --accept-untrusted-device: \(failure)"))
                    }
                    action = machine.failed(step, failure)
                } catch {
                    action = machine.failed(step, CommissioningFailure(error))
                }
                if step == endsAbruptlyAfter, context.durations.last?.0 == step {
                    throw .stepFailed(step, CommissioningFailure(.hubFailure, "ended abruptly after \(step)"))
                }
            case .finished:
                guard let nodeID = context.nodeID, let identity = identity(context) else {
                    throw .stepFailed(
                        .interview,
                        CommissioningFailure(.hubFailure, "internal error: commissioning finished without a node"))
                }
                let devices: [DeviceID]
                // Where the node answered CASE, and the MRP intervals it advertised there (none kept when it advertised none).
                let operational = context.caseSession
                let mrpParameters = operational.flatMap { session in
                    session.established.peerParameters.map { _ in session.established.mrpParameters }
                }
                do {
                    devices = try await store.finishCommissioning(
                        nodeID, description: context.description, addresses: operational.map { [$0.peer] } ?? [],
                        mrpParameters: mrpParameters,
                        deviceName: name ?? context.description?.productName ?? Self.defaultDeviceName, room: room)
                } catch {
                    // The store refused (the session was cancelled meanwhile, or the disk failed): the device must not
                    // stay on a fabric whose hub forgot it.
                    await leaveFabric(context)
                    await closeSessions(context)
                    try? await store.deleteNode(nodeID)
                    throw .stepFailed(.interview, CommissioningFailure(error))
                }
                await closeSessions(context)
                // CommissioningComplete disarmed the fail-safe.
                if let address = context.address { store.failSafeEnded(at: address) }
                return CommissioningResult(
                    nodeID: nodeID, vendorID: identity.vendorID, productID: identity.productID,
                    description: context.description,
                    attestation: context.attestationRecord, stepDurations: context.durations.map { ($0.0, $0.1) },
                    elapsed: clock.now - started, devices: devices)
            case .failed(.stepFailed(.interview, let failure), _):
                // The device is ours (CommissioningComplete succeeded); what it is can be read again later.
                progress(.note("commissioned, but reading the device's information failed: \(failure)"))
                action = .finished
            case .failed(let error, let rollback):
                await undo(rollback, context)
                await closeSessions(context)
                throw error
            }
        }
    }

    // MARK: Steps

    private func perform(
        _ step: CommissioningStep, _ request: CommissioningRequest, _ before: Context
    ) async throws -> Context {
        var context = before
        switch step {
        case .discovery:
            (context.address, context.candidates) = try await discover(request)

        case .passcodeSession:
            guard var address = context.address else {
                throw CommissioningFailure(.hubFailure, "no address to reach the device at")
            }
            var pase: SessionEstablishment.Result
            while true {
                do {
                    pase = try await SessionEstablishment.pase(
                        with: address, passcode: request.payload.passcode, over: transport, random: random)
                    break
                } catch {
                    // Another device with the same discriminator may be the one the payload is for.
                    let failure = CommissioningFailure(error)
                    if failure.kind == .deviceBusy, let known = try? await explainBusy(at: address) {
                        switch known {
                        case .explained(let failure): throw failure
                        case .heldByUs(let expiry) where !context.waitedForEarlierAttempt:
                            throw HeldByEarlierAttempt(expiry: expiry)
                        case .heldByUs: break
                        }
                    }
                    guard failure.kind == .noAnswer || failure.kind == .wrongPasscode,
                        let next = await context.candidates?.next(), let nextAddress = next.socketAddresses.first
                    else { throw error }
                    progress(
                        .note(
                            "PASE with the device at \(address) failed (\(failure)); trying \(next.instanceName) at \(nextAddress)"
                        ))
                    address = nextAddress
                    context.address = nextAddress
                }
            }
            await context.candidates?.stop()
            context.candidates = nil
            // Establishing PASE armed the device's fail-safe (Matter Core §5.5), for as long as ArmFailSafe will.
            store.failSafeArmed(at: address, seconds: HubConstants.failSafeSeconds)
            context.pase = pase
            context.paseClient = InteractionClient(
                transport: transport, session: pase.session, peerParameters: pase.established.mrpParameters)

        case .armFailSafe:
            let response = try await paseClient(context).invoke(
                GeneralCommissioningCluster.Commands.ArmFailSafe(
                    expiryLengthSeconds: HubConstants.failSafeSeconds, breadcrumb: 1),
                endpoint: 0)
            try check(response.errorCode, response.debugText)
            if let address = context.address { store.failSafeArmed(at: address, seconds: HubConstants.failSafeSeconds) }

        case .regulatoryConfig:
            let response = try await paseClient(context).invoke(
                GeneralCommissioningCluster.Commands.SetRegulatoryConfig(
                    newRegulatoryConfig: .indoorOutdoor, countryCode: HubConstants.regulatoryCountryCode, breadcrumb: 2),
                endpoint: 0)
            try check(response.errorCode, response.debugText)

        case .deviceAttestation:
            context.attestation = try await attest(request, context)

        case .certificateSigningRequest:
            guard let dacKey = context.attestation?.facts?.dacPublicKey else {
                throw CommissioningFailure(.refused, "the device's DAC could not be read, so its CSR cannot be checked")
            }
            let nonce = random.bytes(32)
            let response = try await paseClient(context).invoke(
                OperationalCredentialsCluster.Commands.CSRRequest(csrNonce: nonce), endpoint: 0)
            context.csr = try NOCSRVerification.verify(
                nocsrElements: response.nocsrElements, attestationSignature: response.attestationSignature,
                attestationChallenge: try attestationChallenge(context), csrNonce: nonce, dacPublicKey: dacKey)

        case .addTrustedRoot:
            try await refuseIfAlreadyOnOurFabric(context)
            _ = try await paseClient(context).invoke(
                OperationalCredentialsCluster.Commands.AddTrustedRootCertificate(
                    rootCACertificate: authority.rootCertificateTLV), endpoint: 0)

        case .addOperationalCertificate:
            guard let csr = context.csr else { throw CommissioningFailure(.hubFailure, "no verified CSR") }
            let nodeID = try await authority.allocateNodeID()
            let (noc, icac) = try authority.issueNOC(for: csr, nodeID: nodeID)
            let identity = identity(context)
            // The row goes in before AddNOC, so a crash from here on leaves a trace to roll back.
            try await store.beginCommissioning(
                nodeID: nodeID, vendorID: identity?.vendorID ?? 0, productID: identity?.productID ?? 0,
                attestation: context.attestationRecord, addresses: context.address.map { [$0] } ?? [],
                session: request.session)
            context.nodeID = nodeID
            do {
                context.fabricIndex = try await addNOC(noc: noc, icac: icac, context)
            } catch {
                // This step's context is lost with its failure, so its row goes here; the fail-safe's expiry undoes
                // the device's side should AddNOC have succeeded without its answer reaching us.
                try? await store.deleteNode(nodeID)
                throw error
            }

        case .networkSetup:
            throw CommissioningFailure(
                .unsupported,
                "network setup (Wi-Fi or Thread credentials) is not built yet; only devices already on IP can be commissioned"
            )

        case .operationalDiscovery:
            context.operationalAddress = try await discoverOperational(request, context)

        case .operationalSession:
            guard let address = context.operationalAddress, let nodeID = context.nodeID else {
                throw CommissioningFailure(.hubFailure, "no operational address")
            }
            context.caseSession = try await SessionEstablishment.case(
                with: address, nodeID: nodeID, credentials: authority.operationalCredentials,
                validator: authority.peerValidator, over: transport, random: random)

        case .commissioningComplete:
            guard let session = context.caseSession else { throw CommissioningFailure(.hubFailure, "no CASE session") }
            let client = InteractionClient(
                transport: transport, session: session.session, peerParameters: session.established.mrpParameters)
            let response = try await client.invoke(
                GeneralCommissioningCluster.Commands.CommissioningComplete(), endpoint: 0)
            try check(response.errorCode, response.debugText)

        case .interview:
            guard let session = context.caseSession else { throw CommissioningFailure(.hubFailure, "no CASE session") }
            let client = InteractionClient(
                transport: transport, session: session.session, peerParameters: session.established.mrpParameters)
            context.description = try await NodeInterview.interview(client)
            // Other ecosystems' "connected apps" lists name us by our fabric's label: the home's name. Best effort:
            // a device that refuses a label is still commissioned.
            if let home = try? await store.structures().first?.name {
                _ = try? await client.invoke(
                    OperationalCredentialsCluster.Commands.UpdateFabricLabel(label: FabricLabel.of(home: home)),
                    endpoint: 0)
            }
        }
        return context
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

    private func discoverOperational(_ request: CommissioningRequest, _ context: Context) async throws -> SocketAddress
    {
        guard let nodeID = context.nodeID else { throw CommissioningFailure(.hubFailure, "no node ID") }
        let commissioningAddress = context.pase?.peer
        guard !request.interfaces.isEmpty else {
            // No mDNS allowed: the device keeps answering where it was commissioned.
            guard let commissioningAddress else { throw CommissioningFailure(.hubFailure, "no address") }
            return commissioningAddress
        }
        let peer = OperationalPeerID(
            compressedFabricID: authority.compressedFabricIDNumber, nodeID: nodeID)
        do {
            let node = try await MulticastDNSQuerier().resolveOperational(
                peer, interfaces: request.interfaces, timeout: HubTiming.operationalResolve)
            if let address = node.socketAddresses.first { return address }
        } catch {
            guard let commissioningAddress else { throw error }
            progress(
                .note("operational record \(peer.instanceName) not found (\(error)); using the commissioning address"))
            return commissioningAddress
        }
        guard let commissioningAddress else {
            throw CommissioningFailure(.refused, "the operational record has no address")
        }
        return commissioningAddress
    }

    /// The attestation result; throws when the device is untrusted (after recording what it learned in `result`).
    private func attest(_ request: CommissioningRequest, _ context: Context) async throws -> AttestationResult {
        let client = try paseClient(context)
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
            attestationChallenge: try attestationChallenge(context), nonce: nonce,
            deviceVendorID: try basicInformation.value(vendorID, endpoint: 0),
            deviceProductID: try basicInformation.value(productID, endpoint: 0),
            now: Int64(Date().timeIntervalSince1970))
        if case .untrusted(let reasons) = result.verdict {
            throw AttestationFailure(result: result, reasons: reasons.map { "\($0)" })
        }
        return result
    }

    /// Matter Core §11.18.6.8 AddNOC: the fabric index the device gave our fabric.
    private func addNOC(noc: [UInt8], icac: [UInt8]?, _ context: Context) async throws -> UInt8? {
        let response = try await paseClient(context).invoke(
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
    private func refuseIfAlreadyOnOurFabric(_ context: Context) async throws {
        let fabrics = OperationalCredentialsCluster.Attributes.fabrics
        let report = try await paseClient(context).read([fabrics.path(endpoint: 0)], isFabricFiltered: false)
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

    private func undo(_ rollback: CommissioningStateMachine.Rollback, _ context: Context) async {
        if let client = context.paseClient {
            if rollback.contains(.removeFabricFromDevice), let fabricIndex = context.fabricIndex {
                _ = try? await client.invoke(
                    OperationalCredentialsCluster.Commands.RemoveFabric(fabricIndex: fabricIndex), endpoint: 0,
                    timeout: HubTiming.rollbackStep)
            }
            // Expiring the fail-safe makes the device undo everything done under it (§11.10.7.2.2); a device that
            // did not hear it stays held until the fail-safe expires, as the store goes on saying.
            let disarmed = try? await client.invoke(
                GeneralCommissioningCluster.Commands.ArmFailSafe(expiryLengthSeconds: 0, breadcrumb: 0), endpoint: 0,
                timeout: HubTiming.rollbackStep)
            if disarmed?.errorCode == .ok, let address = context.address { store.failSafeEnded(at: address) }
        }
        if rollback.contains(.forgetNode), let nodeID = context.nodeID {
            try? await store.deleteNode(nodeID)
        }
    }

    /// After CommissioningComplete, the fail-safe no longer undoes anything: RemoveFabric over the CASE session does.
    private func leaveFabric(_ context: Context) async {
        guard let session = context.caseSession, let fabricIndex = context.fabricIndex else { return }
        let client = InteractionClient(
            transport: transport, session: session.session, peerParameters: session.established.mrpParameters)
        _ = try? await client.invoke(
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

    private func closeSessions(_ context: Context) async {
        await context.candidates?.stop()
        if let pase = context.pase { await transport.removeSession(pase.session) }
        // The commissioner's own CASE session (its interview's subscription with it) is not the hub's live one.
        if let operational = context.caseSession { await transport.closeSession(operational.session) }
    }

    // MARK: Helpers

    private func paseClient(_ context: Context) throws -> InteractionClient {
        guard let client = context.paseClient else { throw CommissioningFailure(.hubFailure, "no PASE session") }
        return client
    }

    private func attestationChallenge(_ context: Context) throws -> [UInt8] {
        guard let pase = context.pase else { throw CommissioningFailure(.hubFailure, "no PASE session") }
        return pase.established.keys.attestationChallenge
    }

    private func check(_ code: GeneralCommissioningCluster.CommissioningErrorEnum, _ debugText: String) throws {
        guard code == .ok else {
            throw CommissioningFailure(
                .refused, "the device answered \(code)\(debugText.isEmpty ? "" : " (\(debugText))")")
        }
    }

    /// Who the device is: from its DAC when attestation read it, else from its interview.
    private func identity(_ context: Context) -> (vendorID: UInt16, productID: UInt16)? {
        if let facts = context.attestation?.facts, let vendorID = facts.vendorID, let productID = facts.productID {
            return (vendorID, productID)
        }
        return context.description.map { ($0.vendorID, $0.productID) }
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

extension CommissionableNode {
    /// IPv6 first (Matter's preference), then IPv4.
    var socketAddresses: [SocketAddress] {
        ipv6Addresses.map { SocketAddress.ipv6($0, port: port) }
            + ipv4Addresses.map { SocketAddress.ipv4($0, port: port) }
    }
}

extension OperationalNode {
    var socketAddresses: [SocketAddress] {
        ipv6Addresses.map { SocketAddress.ipv6($0, port: port) }
            + ipv4Addresses.map { SocketAddress.ipv4($0, port: port) }
    }
}
