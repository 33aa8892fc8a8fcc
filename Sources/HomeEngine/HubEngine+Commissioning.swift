import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterCertificates
import MatterOnboarding

/// What the add-device operations share (`PrepareCommissioning`, `CommissionDevice`, …): who may add devices, which
/// session is open and whose it is, its state file, commissioning outside a session.
extension HubEngine {
    /// Runs `body`, a change of the add-device session or of what it lists, then rewrites the session's state file
    /// whether it succeeded or not (a prepare that cleared an abandoned session before it was refused changed it).
    func changingCommissioningSession<Result, Failure: Error>(
        _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        do {
            let result = try await body()
            await publishCommissioningSession()
            return result
        } catch {
            await publishCommissioningSession()
            throw error
        }
    }

    /// `home commission`: interrupted commissionings finished first (each said in a note), then the device.
    func commission(
        _ request: CommissionDevice, progress: @escaping @Sendable (HubProgress) -> Void
    ) async throws(HomeError) -> CommissionedDevice {
        // Checked before anything is sent: a name the store would refuse must not cost the device a commissioning.
        var request = request
        request.deviceName = try request.deviceName.map { name throws(HomeError) in
            try HomeName.validated(name, naming: "device")
        }
        request.room = try request.room.map { room throws(HomeError) in try HomeName.validated(room, naming: "room") }
        let payload: SetupPayload
        do {
            payload = try SetupPayload(parsing: request.payload)
        } catch {
            throw HomeError(.invalidArgument, "bad onboarding payload: \(error)")
        }
        let trustStore: PAATrustStore
        do {
            trustStore =
                try request.paaTrustStore.map { try PAATrustStore(directory: $0) } ?? PAATrustStore(certificates: [])
        } catch {
            throw HomeError(
                .failedPrecondition, "the PAA trust store \(request.paaTrustStore ?? "") cannot be used: \(error)")
        }
        // A device an earlier, interrupted commissioning left on our fabric may be the very device this is for (a
        // closed window, a BUSY device, would otherwise say nothing).
        let started = ContinuousClock.now
        let finished = await hub.finishInterruptedCommissionings(interfaces: request.interfaces)
        for node in finished {
            progress(
                .note(
                    "finished adding \(node.productName) (interrupted earlier): "
                        + node.devices.map(\.description).joined(separator: ", ")))
        }
        let bluetooth = try await bluetoothCentral(
            request.bluetooth, for: payload, addressGiven: request.address != nil)
        var commissioning = CommissioningRequest(
            payload: payload, address: bluetooth == nil ? request.address : nil, interfaces: request.interfaces,
            trustStore: trustStore, acceptUntrustedDevice: request.acceptUntrustedDevice,
            networks: bluetooth == nil
                ? []
                : try await networksForNewDevices(wifiID: request.wifiCredentialsID, threadID: request.threadDatasetID),
            bluetooth: bluetooth)
        commissioning.scanNetworks = request.scanNetworks
        do {
            let result = try await hub.commission(commissioning, name: request.deviceName, room: request.room) {
                event in
                switch event {
                case .started: break
                case .finished(let step, let duration):
                    progress(.finished(step: step.description, seconds: duration.inSeconds))
                case .note(let text): progress(.note(text))
                }
            }
            return CommissionedDevice(
                nodeID: result.nodeID, vendorID: result.vendorID, productID: result.productID, devices: result.devices,
                elapsedSeconds: result.elapsed.inSeconds,
                steps: result.stepDurations.map { .init(step: $0.step.description, seconds: $0.duration.inSeconds) })
        } catch {
            // The device is one an interrupted attempt added (just now, or at a restart since): this one adopts it.
            if case CommissioningError.stepFailed(_, let failure) = error, failure.kind == .alreadyCommissioned,
                let nodeID = failure.node, let node = try? await store.node(nodeID), node.recoveredAt != nil
            {
                return try await adopt(node, as: request, since: started, progress: progress)
            }
            throw HomeError(commissioning: error)
        }
    }

    /// The result of `home commission` for a device an interrupted attempt had added: named and placed as this one
    /// asks (when it asks; its names already checked).
    private func adopt(
        _ node: NodeRecord, as request: CommissionDevice, since started: ContinuousClock.Instant,
        progress: @Sendable (HubProgress) -> Void
    ) async throws(HomeError) -> CommissionedDevice {
        let devices = try await write { store async throws(HubStoreError) in
            try await store.adoptRecovered(node.nodeID, named: request.deviceName, inRoom: request.room)
        }
        progress(.note("this device is the one an interrupted attempt left, finished since: it is added as asked"))
        return CommissionedDevice(
            nodeID: node.nodeID, vendorID: node.vendorID, productID: node.productID, devices: devices,
            elapsedSeconds: (ContinuousClock.now - started).inSeconds, steps: [])
    }

    /// The open session, whoever opened it, when it is still live.
    func liveSession() async throws(HomeError) -> CommissioningSessionRecord {
        let session: CommissioningSessionRecord?
        do {
            session = try await store.commissioningSession()
        } catch {
            throw HomeError(error)
        }
        guard let session, !session.isAbandoned(now: Date()) else {
            throw HomeError(.failedPrecondition, HubStoreError.noCommissioningSession.description)
        }
        return session
    }

    /// Best effort, one node after the other, each bounded by the hub's fabric-removal timeout. Nodes still marked
    /// `commissioning` are asked too: their process may have died after CommissioningComplete, when the device's
    /// fail-safe no longer undoes anything (before it, CASE fails at once: the device dropped our NOC).
    func removeFromFabric(commissionedIn session: CommissioningSessionRecord) async {
        for nodeID in session.nodeIDs {
            try? await hub.removeFromFabric(nodeID, interfaces: session.interfaces)
        }
    }
}
