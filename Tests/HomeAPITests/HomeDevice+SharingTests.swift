import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterPlatform
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// Sharing over a live node: our virtual light, commissioned by the home's hub, opened to a second hub.
@Suite(.serialized) struct HomeDeviceSharingTests {
    @Test func aSharedDeviceJoinsASecondHubAndBothFabricsAreListed() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, device in
            let lamp = try #require(try await home.devices().list().first)
            #expect(try await lamp.commissioningWindowStatus() == .closed)
            let window = try await lamp.openCommissioningWindow(timeout: .seconds(180))
            #expect(await device.isCommissioningWindowOpen)
            #expect(try await lamp.commissioningWindowStatus() == .enhanced)
            #expect(window.expiresAt > Date().addingTimeInterval(170))
            let payload = try SetupPayload(parsing: window.manualCode)
            #expect(try SetupPayload(parsing: window.qrCode).passcode == payload.passcode)
            #expect(!Passcode.forbidden.contains(payload.passcode) && payload.passcode != 20_202_021)

            // Open already: refused, and nothing changes.
            let again = await #expect(throws: HomeError.self) { _ = try await lamp.openCommissioningWindow() }
            #expect(again?.code == .failedPrecondition)

            // Another ecosystem (a second hub of ours, as vendor 0xFFF1) commissions it with the code alone.
            try await withTemporaryDirectory { directory in
                let second = try await Hub(statePath: directory + "/second")
                let trust = PAATrustStore(certificates: [try X509Certificate(derEncoded: device.attestation.paa)])
                let address = SocketAddress.ipv4(IPv4Address(127 << 24 | 1), port: device.port)
                let joined = try await second.commission(
                    CommissioningRequest(payload: payload, address: address, trustStore: trust), name: "lamp",
                    room: nil, progress: { _ in })
                let fabrics = try await lamp.fabrics()
                #expect(fabrics.map(\.index) == [1, 2])
                #expect(fabrics.map(\.isThisHub) == [true, false])
                #expect(fabrics.last?.nodeID == joined.nodeID && fabrics.last?.vendorName == "test vendor 1")
                #expect(Set(fabrics.map(\.rootKeyFingerprint)).count == 2)
                // Each hub labels its fabric with its home's name at commissioning; the second's "Home" was taken
                // (§11.18.6.11: LabelConflict), so its fabric stays unlabelled and its commissioning went on.
                #expect(fabrics.map(\.label) == ["Home", ""])

                // Our own fabric is refused, an index the node lacks is not found; the other one goes.
                let own = await #expect(throws: HomeError.self) { try await lamp.removeFabric(index: 1) }
                #expect(own?.code == .failedPrecondition)
                let absent = await #expect(throws: HomeError.self) { try await lamp.removeFabric(index: 9) }
                #expect(absent?.code == .notFound)
                try await lamp.removeFabric(index: 2)
                #expect(try await lamp.fabrics().map(\.index) == [1])
                #expect(await device.fabrics.map(\.nodeID) == [fabrics[0].nodeID])
            }
            #expect(await device.isCommissioningWindowOpen == false)
        }
    }

    @Test func aWindowCanBeRevokedAndBadRequestsChangeNothing() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, device in
            let lamp = try #require(try await home.devices().list().first)
            for timeout in [Duration.seconds(179), .seconds(901), .milliseconds(180_500)] {
                let refused = await #expect(throws: HomeError.self) {
                    _ = try await lamp.openCommissioningWindow(timeout: timeout)
                }
                #expect(refused?.code == .invalidArgument)
            }
            #expect(await device.isCommissioningWindowOpen == false)
            let none = await #expect(throws: HomeError.self) { try await lamp.revokeCommissioningWindow() }
            #expect(none?.code == .failedPrecondition)

            _ = try await lamp.openCommissioningWindow(timeout: .seconds(900))
            #expect(await device.isCommissioningWindowOpen)
            try await lamp.revokeCommissioningWindow()
            #expect(await device.isCommissioningWindowOpen == false)
            #expect(try await lamp.fabrics().map(\.isThisHub) == [true])

            // A basic window: the device's own setup code works meanwhile.
            let closes = try await lamp.openBasicCommissioningWindow(timeout: .seconds(180))
            #expect(closes > Date().addingTimeInterval(170))
            #expect(await device.isCommissioningWindowOpen)
            #expect(try await lamp.commissioningWindowStatus() == .basic)
            try await lamp.revokeCommissioningWindow()
            #expect(await device.isCommissioningWindowOpen == false)

            // Renaming the home relabels the hub's fabric on its nodes, in the background.
            #expect(try await lamp.fabrics().first?.label == "Home")
            let structure = try #require(try await home.structures().list().first)
            _ = try await structure.setName("Beach house")
            var label: String?
            for _ in 0..<500 {
                label = try await lamp.fabrics().first?.label
                if label == "Beach house" { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(label == "Beach house")
        }
    }
}

@Suite struct HomeDeviceSharingRefusalTests {
    /// A bridged device is shared through its bridge: refused before anything is sent (the node has no address).
    @Test func aBridgedDeviceIsSharedThroughItsBridge() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x000E), (2, 0x0013), (2, 0x0100)], named: "Bridge")
            let bridged = try #require(try await home.devices().list().first { $0.id.hasSuffix("-2") })
            let enhanced = await #expect(throws: HomeError.self) { _ = try await bridged.openCommissioningWindow() }
            let basic = await #expect(throws: HomeError.self) { _ = try await bridged.openBasicCommissioningWindow() }
            for refused in [enhanced, basic] {
                #expect(refused?.code == .failedPrecondition)
                #expect(refused?.message.contains("is a bridged device: share its bridge") == true)
            }
        }
    }
}
