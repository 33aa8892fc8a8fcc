import Foundation
import HomeHub
import HubWire
import MatterCertificates
import MatterOnboarding
import MatterPlatform

/// The open add-device session's device commissioned from its onboarding payload (at `deviceAddress` when given,
/// else found by discovery). Whoever may use the session may: it was opened by who may add devices.
public struct CommissionInSession: HubOperation {
    public static let name = "commissionInSession"
    public let payload: String
    public let deviceAddress: SocketAddress?

    public init(payload: String, deviceAddress: SocketAddress?) {
        self.payload = payload
        self.deviceAddress = deviceAddress
    }

    public var access: HubAccess { .member }
    public var summary: String { "add a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let engine = scope.engine
        return try await engine.changingCommissioningSession { () async throws(HomeError) in
            let session = try await engine.liveSession()
            // The session's opener held the devices right; whoever uses it (its helper, another process) must too.
            try await engine.check(.right(.devices, structureID: session.structureID), of: summary, for: scope.caller)
            let setup: SetupPayload
            do {
                setup = try SetupPayload(parsing: payload.trimmingCharacters(in: .whitespacesAndNewlines))
            } catch {
                throw HomeError(.invalidArgument, "bad onboarding payload: \(error)")
            }
            let trustStore: PAATrustStore
            do {
                trustStore = try PAATrustStore(directory: session.paaTrustStore)
            } catch {
                throw HomeError(
                    .failedPrecondition, "the PAA trust store \(session.paaTrustStore) cannot be used: \(error)")
            }
            // A code for a device fresh from its box goes over Bluetooth LE, given the home's network.
            let address = deviceAddress ?? engine.commissioning.address
            let bluetooth = try await engine.bluetoothCentral(nil, for: setup, addressGiven: address != nil)
            let request = CommissioningRequest(
                payload: setup, address: bluetooth == nil ? address : nil, interfaces: session.interfaces,
                trustStore: trustStore, session: session.id,
                networks: bluetooth == nil ? [] : try await engine.networksForNewDevices(), bluetooth: bluetooth)
            do {
                _ = try await engine.hub.commission(request, name: nil, room: nil) { _ in }
            } catch {
                throw HomeError(commissioning: error)
            }
            return Done()
        }
    }
}
