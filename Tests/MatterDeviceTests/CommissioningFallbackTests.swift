import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

/// Two devices share a short discriminator (3840 and 3841 both have 15 in their upper four bits) and differ in
/// passcode. An 11-digit manual code carries only the short discriminator: discovery finds both, PASE with the first
/// fails on its passcode, and the commissioner goes on to the second, the one the code is for. On virtual time; the
/// browse answers with both devices, the other one first, as mDNS would in either order.
@Suite(.timeLimit(.minutes(1))) struct CommissioningFallbackTests {
    @Test func aManualCodeCommissionsTheDeviceWhosePasscodeItCarries() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 41)
            let other = try await LoopbackFixture.start(in: directory, network: network, name: "other")
            let wanted = try await LoopbackFixture.start(
                in: directory, network: network, name: "wanted", passcode: 34_567_890, discriminator: 3841)
            let hub = try await Hub(statePath: directory + "/hub")
            let transport = try wanted.controllerTransport()
            let found = [(other, 3840), (wanted, 3841)].map { fixture, discriminator in
                CommissionableNode(
                    instanceName: "\(discriminator)", hostName: DNSName("device-\(discriminator).local"),
                    port: fixture.device.port, ipv4Addresses: [IPv4Address(127 << 24 | 1)], ipv6Addresses: [],
                    txt: MatterTXTRecord(entries: [
                        TXTEntry(key: "D", value: "\(discriminator)"), TXTEntry(key: "CM", value: "1"),
                    ]))
            }
            let browsed = Mutex<[CommissionableFilter]>([])
            let notes = LogLines()
            let commissioner = Commissioner(
                authority: hub.authority, store: hub.store, transport: transport,
                discovery: { filter, _ in
                    browsed.withLock { $0.append(filter) }
                    return AsyncThrowingStream { continuation in
                        for node in found { continuation.yield(node) }
                        continuation.finish()
                    }
                },
                progress: { if case .note(let line) = $0 { notes.append(line) } })
            let payload = try SetupPayload(manualCode: try wanted.device.setupPayload.manualCode())
            #expect(payload.discriminator == .short(15))
            let trust = PAATrustStore(certificates: [
                try X509Certificate(derEncoded: other.device.attestation.paa),
                try X509Certificate(derEncoded: wanted.device.attestation.paa),
            ])
            let request = CommissioningRequest(payload: payload, interfaces: ["test"], trustStore: trust)
            let outcome = await drive(network.clock) { () -> Result<CommissioningResult, any Error> in
                do {
                    return .success(try await commissioner.commission(request))
                } catch {
                    return .failure(error)
                }
            }
            let result = try #require(try outcome?.value.get())
            #expect(browsed.withLock { $0 } == [.shortDiscriminator(15)])
            #expect(await wanted.device.fabrics.map(\.nodeID) == [result.nodeID])
            #expect(await other.device.fabrics.isEmpty)
            #expect(
                notes.all.contains {
                    $0.hasPrefix("PASE with the device at 127.0.0.1:\(other.device.port) failed")
                        && $0.hasSuffix("trying 3841 at 127.0.0.1:\(wanted.device.port)")
                }, "\(notes.all)")
            await transport.shutdown()
            await other.device.shutdown()
            await wanted.device.shutdown()
        }
    }
}
