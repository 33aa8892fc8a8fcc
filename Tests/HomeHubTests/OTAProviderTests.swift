import Foundation
import MatterBDX
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterOTA
import MatterPlatform
import MatterTLV
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@testable import HomeHub

/// The hub as OTA provider (Matter Core §11.21.6) to a device of its fabric that opens CASE to it, as a requestor
/// does: QueryImage, the image over BDX, ApplyUpdateRequest, NotifyUpdateApplied.
@Suite(.timeLimit(.minutes(1))) struct OTAProviderTests {
    typealias Provider = OtaSoftwareUpdateProviderCluster

    static func image(version: UInt32, payload: Int = 5_000, minimum: UInt32? = nil) throws -> OTAImage {
        try OTAImage(
            payload: (0..<payload).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(version)) }, vendorID: 0xFFF1,
            productID: 0x8001, softwareVersion: version, softwareVersionString: "v\(version).0",
            minApplicableSoftwareVersion: minimum)
    }

    /// An image written as a file anywhere, for `add(fileAt:)`.
    static func file(_ image: OTAImage, in directory: String, named name: String = "update.ota") throws -> String {
        let path = directory + "/" + name
        try Data(image.encoded).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func query(
        version: UInt32, protocols: [Provider.DownloadProtocolEnum] = [.bdxSynchronous]
    )
        -> Provider.Commands.QueryImage
    {
        .init(vendorID: 0xFFF1, productID: 0x8001, softwareVersion: version, protocolsSupported: protocols)
    }

    @Test func aDeviceQueriesDownloadsAppliesAndNotifies() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base + "/hub")
            let image = try Self.image(version: 2)
            try await hub.updates.images.add(fileAt: try Self.file(image, in: base))
            let events = hub.updates.events()
            let link = try await hub.link()
            let device = try await enrolledDevice(on: hub.authority, seed: 7)
            let (session, client, transport) = try await HubNodeTests.openCASE(to: link, as: device, hub: hub)

            let answer = try await client.invoke(Self.query(version: 1), endpoint: 0)
            #expect(answer.status == .updateAvailable)
            #expect(answer.softwareVersion == 2 && answer.softwareVersionString == "v2.0")
            let uri = try #require(answer.imageURI)
            let hubID = String(format: "%016llX", hub.authority.hubNodeID)
            #expect(uri == "bdx://\(hubID)/FFF1-8001-2.ota")
            let token = try #require(answer.updateToken)
            #expect(token.count == HubConstants.otaUpdateTokenLength)

            let received = Mutex<[UInt8]>([])
            let designator = Array(uri.split(separator: "/").last!.utf8)
            let end = await BDXExchange.download(
                designator, on: session.session, over: transport,
                deliver: { bytes in received.withLock { $0 += bytes } })
            #expect(end == .finished)
            #expect(received.withLock { $0 } == image.encoded, "the file, byte for byte")
            #expect(try OTAImage(parsing: received.withLock { $0 }).header.softwareVersion == 2)

            let apply = try await client.invoke(
                Provider.Commands.ApplyUpdateRequest(updateToken: token, newVersion: 2), endpoint: 0)
            #expect(apply.action == .proceed)
            _ = try await client.invoke(
                Provider.Commands.NotifyUpdateApplied(updateToken: token, softwareVersion: 2), endpoint: 0)

            var seen: [OTAProvider.Event] = []
            for await event in events {
                if case .transferred = event { continue }
                seen.append(event)
                if case .applied = event { break }
            }
            #expect(
                seen == [
                    .offered(nodeID: device.nodeID, version: 2), .transferEnded(nodeID: device.nodeID, .finished),
                    .applying(nodeID: device.nodeID, version: 2), .applied(nodeID: device.nodeID, version: 2),
                ])
            await transport.shutdown()
            await hub.close()
        }
    }

    @Test func nothingNewerOrApplicableIsNotAvailableAndAnImageNeverOfferedIsNotServed() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base + "/hub")
            try await hub.updates.images.add(fileAt: try Self.file(try Self.image(version: 5, minimum: 3), in: base))
            let link = try await hub.link()
            let device = try await enrolledDevice(on: hub.authority, seed: 7)
            let (session, client, transport) = try await HubNodeTests.openCASE(to: link, as: device, hub: hub)
            // Already at 5, and too old at 2 (the image applies from 3 on).
            #expect(try await client.invoke(Self.query(version: 5), endpoint: 0).status == .notAvailable)
            #expect(try await client.invoke(Self.query(version: 2), endpoint: 0).status == .notAvailable)
            var other = Self.query(version: 3)
            other.productID = 0x8002
            #expect(try await client.invoke(other, endpoint: 0).status == .notAvailable)
            #expect(
                try await client.invoke(Self.query(version: 3, protocols: [.https]), endpoint: 0).status
                    == .downloadProtocolNotSupported)
            // Asking BDX for an image the hub never offered this node.
            let end = await BDXExchange.download(
                Array("FFF1-8001-5.ota".utf8), on: session.session, over: transport, deliver: { _ in })
            guard case .failed(.fileDesignatorUnknown, _, byPeer: true) = end else {
                Issue.record("expected the hub to report fileDesignatorUnknown: \(end)")
                return
            }
            await transport.shutdown()
            await hub.close()
        }
    }

    /// Two transfers at once, and a third device is told Busy with when to ask again.
    @Test func pastTheTransfersAtOnceADeviceIsToldBusy() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base + "/hub")
            try await hub.updates.images.add(fileAt: try Self.file(try Self.image(version: 2), in: base))
            let link = try await hub.link()
            var clients: [(SessionEstablishment.Result, InteractionClient, MatterTransport)] = []
            for seed in 1...3 {
                let device = try await enrolledDevice(on: hub.authority, seed: UInt64(seed))
                clients.append(try await HubNodeTests.openCASE(to: link, as: device, hub: hub))
            }
            // Two devices start transfers and hold them open (their first block asked for, no more).
            var exchanges: [ExchangeHandle] = []
            for (session, client, transport) in clients.prefix(HubConstants.otaTransfersAtOnce) {
                let answer = try await client.invoke(Self.query(version: 1), endpoint: 0)
                #expect(answer.status == .updateAvailable)
                let exchange = try await transport.openExchange(on: session.session)
                let receiveInit = BDXMessage.receiveInit(
                    BDXTransferInit(
                        proposedControl: .receiverDrive, maxBlockSize: 1024, startOffset: 0,
                        fileDesignator: Array("FFF1-8001-2.ota".utf8)))
                try await transport.send(
                    ExchangeMessage(
                        protocolID: .bulkDataExchange, opcode: receiveInit.opcode.rawValue,
                        payload: receiveInit.payload), on: exchange)
                let accept = try await transport.receive(on: exchange, timeout: .seconds(10))
                #expect(accept.opcode == BDXOpcode.receiveAccept.rawValue)
                exchanges.append(exchange)
            }
            let third = try await clients[2].1.invoke(Self.query(version: 1), endpoint: 0)
            #expect(third.status == .busy)
            #expect(third.delayedActionTime == HubConstants.otaBusyRetrySeconds)
            for (_, _, transport) in clients { await transport.shutdown() }
            await hub.close()
        }
    }

    @Test func aDeviceOfTheFabricMayAskButNotChangeTheProvider() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base + "/hub")
            let link = try await hub.link()
            let device = try await enrolledDevice(on: hub.authority, seed: 7)
            let (_, client, transport) = try await HubNodeTests.openCASE(to: link, as: device, hub: hub)
            // Operate on the provider cluster only: the ACL still refuses writing the hub's own ACL.
            #expect(try await client.invoke(Self.query(version: 1), endpoint: 0).status == .notAvailable)
            let refused = await #expect(throws: InteractionClientError.self) {
                try await client.write([
                    AttributeDataIB(
                        path: AccessControlCluster.Attributes.acl.path(endpoint: 0), data: TLVElement(.array([])))
                ])
            }
            #expect("\(String(describing: refused))".contains("UNSUPPORTED_ACCESS"))
            await transport.shutdown()
            await hub.close()
        }
    }
}

extension OTAProviderTests {
    /// An offer takes its node's transfer place at once (a device told UpdateAvailable is never refused the transfer
    /// for want of one), and an offer left unused gives its place up after `HubConstants.otaOfferLifetime`.
    @Test func anOfferHoldsAPlaceUntilItLapses() async throws {
        try await withTemporaryDirectory { base in
            let images = try await OTAImageStore(directory: base + "/images")
            try await images.add(fileAt: try Self.file(try Self.image(version: 2), in: base))
            let provider = OTAProvider(images: images, hubNodeID: 1)
            let start = Instant.zero
            #expect(provider.answer(Self.query(version: 1), from: 10, now: start).status == .updateAvailable)
            #expect(provider.answer(Self.query(version: 1), from: 11, now: start).status == .updateAvailable)
            let third = provider.answer(Self.query(version: 1), from: 12, now: start + .seconds(1))
            #expect(third.status == .busy && third.delayedActionTime == HubConstants.otaBusyRetrySeconds)
            // A node that holds a place asks again and keeps it.
            #expect(
                provider.answer(Self.query(version: 1), from: 10, now: start + .seconds(2)).status == .updateAvailable)
            // Neither started a transfer: past the offer's lifetime their places go to the next device.
            let later = start + HubConstants.otaOfferLifetime + .seconds(3)
            #expect(provider.answer(Self.query(version: 1), from: 12, now: later).status == .updateAvailable)
        }
    }
}
