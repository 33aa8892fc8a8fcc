import MatterBDX
import MatterCertificates
import MatterDataModel
import MatterMessaging
import MatterNode
import MatterOTA
import MatterPlatform
import Synchronization

// Matter Core §11.21.3 and §11.21.7: the virtual device as OTA requestor. Told of a provider (AnnounceOTAProvider), it
// opens CASE to it, asks QueryImage, downloads the image over BDX, checks it (sizes, digest, its vendor and product, a
// later version), asks ApplyUpdateRequest, and "applies" it as a reboot does: the new version runs, its sessions end
// (its peers find it again over CASE), StartUp and VersionApplied are recorded and stored; then NotifyUpdateApplied.
// A failed step leaves the old version running, says why, and records DownloadError when the download failed.
extension VirtualDevice {
    private typealias Requestor = OtaSoftwareUpdateRequestorCluster
    private typealias Provider = OtaSoftwareUpdateProviderCluster

    /// One update from the provider that announced itself (`NodeEffect.updateAnnounced`); one at a time.
    func requestUpdate(from providerNodeID: UInt64, fabricIndex: UInt8, endpoint: UInt16) async {
        guard !isUpdating else { return }
        isUpdating = true
        defer { isUpdating = false }
        do throws(UpdateFailure) {
            try await update(from: providerNodeID, fabricIndex: fabricIndex, endpoint: endpoint)
        } catch {
            log("[ota] update failed: \(error.reason)")
            await transition(.idle, reason: .failure, target: error.target)
        }
    }

    /// Its default providers (DefaultOTAProviders), of every fabric.
    public var defaultOTAProviders: [OtaSoftwareUpdateRequestorCluster.ProviderLocation] {
        get async {
            await rootCluster(OTARequestorServer.self)?.defaultProviders ?? []
        }
    }

    /// Asks each of its default providers (one per fabric) in turn, as its daily query does.
    public func queryDefaultProviders() async {
        // Stored with the writer's fabric always (`OTARequestorServer.write`).
        for provider in await defaultOTAProviders {
            guard let fabricIndex = provider.fabricIndex else { continue }
            await requestUpdate(from: provider.providerNodeID, fabricIndex: fabricIndex, endpoint: provider.endpoint)
        }
    }

    private func update(
        from provider: UInt64, fabricIndex: UInt8, endpoint: UInt16
    ) async throws(UpdateFailure) {
        let identity = await node.model.node.identity
        await transition(.querying, reason: .success, target: nil)
        // Where the provider reached this device from: the reboot that applies the image ends that session, and the
        // notice after it goes to the same address.
        guard case .udp(let address)? = await node.peerAddress(ofNode: provider, fabricIndex: fabricIndex) else {
            throw UpdateFailure(
                "node 0x\(String(provider, radix: 16, uppercase: true)) has no session with this device to be found at")
        }
        let session = try await openSession(to: provider, at: address, fabricIndex: fabricIndex)
        // The session this update has open to the provider, closed however the update ends.
        var open: SessionHandle? = session.session
        defer { if let open { Task { [transport = node.transport] in await transport.closeSession(open) } } }
        let client = InteractionClient(
            transport: node.transport, session: session.session, peerParameters: session.established.mrpParameters)
        guard let answer = try await query(client, endpoint: endpoint, running: identity, provider: provider) else {
            return
        }
        guard let version = answer.softwareVersion, version > identity.softwareVersion, let token = answer.updateToken,
            let uri = answer.imageURI, let designator = Self.designator(in: uri, provider: provider)
        else {
            throw UpdateFailure("the provider's answer names no later image this device can fetch over BDX")
        }
        log("[ota] downloading version \(version) (\(answer.softwareVersionString ?? "?")) from \(uri)")
        await transition(.downloading, reason: .success, target: version, progress: 0)
        let image = try await download(designator, version: version, on: session.session)
        guard image.header.vendorID == identity.vendorID, image.header.productID == identity.productID,
            image.header.softwareVersion == version
        else {
            await recordDownloadError(version: version, bytes: UInt64(image.encoded.count))
            throw UpdateFailure(
                "the image is for vendor 0x\(String(image.header.vendorID, radix: 16)) product 0x\(String(image.header.productID, radix: 16)) version \(image.header.softwareVersion), not this device's version \(version)",
                target: version)
        }
        try await awaitProceed(token: token, version: version, client: client, endpoint: endpoint)
        await transition(.applying, reason: .success, target: version)
        // A reboot ends every session, this device's own to the provider too; a new one carries the notice.
        await node.transport.closeSession(session.session)
        open = nil
        try await apply(image.header)
        let notice = try await openSession(to: provider, at: address, fabricIndex: fabricIndex)
        open = notice.session
        let notifier = InteractionClient(
            transport: node.transport, session: notice.session, peerParameters: notice.established.mrpParameters)
        do {
            _ = try await notifier.invoke(
                Provider.Commands.NotifyUpdateApplied(updateToken: token, softwareVersion: version), endpoint: endpoint)
        } catch {
            log("[ota] version \(version) runs; NotifyUpdateApplied failed: \(error)")
        }
    }

    /// QueryImage until the provider answers other than Busy (§11.21.7.4.2: DelayedOnQuery, then a new query after
    /// its DelayedActionTime), a bounded number of times: UpdateAvailable's answer, or nil when there is nothing to
    /// take (the device is idle again).
    private func query(
        _ client: InteractionClient, endpoint: UInt16, running identity: NodeIdentity, provider: UInt64
    ) async throws(UpdateFailure) -> Provider.Commands.QueryImageResponse? {
        let query = Provider.Commands.QueryImage(
            vendorID: identity.vendorID, productID: identity.productID, softwareVersion: identity.softwareVersion,
            protocolsSupported: [.bdxSynchronous], hardwareVersion: identity.hardwareVersion, requestorCanConsent: false
        )
        let name = "node 0x\(String(provider, radix: 16, uppercase: true))"
        for attempt in 1...DeviceConstants.otaQueries {
            let answer: Provider.Commands.QueryImageResponse
            do {
                answer = try await client.invoke(query, endpoint: endpoint)
            } catch {
                throw UpdateFailure("QueryImage: \(error)")
            }
            switch answer.status {
            case .updateAvailable: return answer
            case .busy where attempt < DeviceConstants.otaQueries:
                let delay = min(answer.delayedActionTime ?? 0, DeviceConstants.otaLongestDelaySeconds)
                log("[ota] \(name) is busy: asking again in \(delay) s")
                await transition(.delayedOnQuery, reason: .delayByProvider, target: nil)
                try? await clock.sleep(for: .seconds(delay))
                await transition(.querying, reason: .success, target: nil)
            default:
                log("[ota] no update from \(name): \(answer.status)")
                await transition(.idle, reason: answer.status == .busy ? .delayByProvider : .success, target: nil)
                return nil
            }
        }
        return nil
    }

    /// CASE to the provider.
    private func openSession(
        to provider: UInt64, at address: SocketAddress, fabricIndex: UInt8
    ) async throws(UpdateFailure) -> SessionEstablishment.Result {
        guard let fabric = await node.model.node.fabrics.first(where: { $0.index == fabricIndex }) else {
            throw UpdateFailure("the provider's fabric \(fabricIndex) is not one of this device's")
        }
        do {
            return try await SessionEstablishment.case(
                with: address, nodeID: provider, credentials: try fabric.operationalCredentials(),
                validator: FabricPeerValidator(root: try MatterCertificate(tlv: fabric.rootCertificate)),
                over: node.transport)
        } catch {
            throw UpdateFailure("CASE to the provider: \(error)")
        }
    }

    /// The image, downloaded whole and checked; UpdateStateProgress follows in whole percents.
    private func download(
        _ designator: [UInt8], version: UInt32, on session: SessionHandle
    ) async throws(UpdateFailure) -> OTAImage {
        let received = Mutex<[UInt8]>([])
        let percent = PercentMark()
        let end = await BDXExchange.download(
            designator, on: session, over: node.transport, deliver: { bytes in received.withLock { $0 += bytes } },
            progress: { [weak self] got, total in
                guard percent.advance(got, of: total) else { return }
                // Shown in whichever order the tasks run: each shows the latest percent, never an older one.
                Task { await self?.showProgress(percent.latest, target: version) }
            })
        let bytes = received.withLock { $0 }
        guard end == .finished else {
            await recordDownloadError(version: version, bytes: UInt64(bytes.count))
            throw UpdateFailure("the download: \(end)", target: version)
        }
        do {
            return try OTAImage(parsing: bytes)
        } catch {
            await recordDownloadError(version: version, bytes: UInt64(bytes.count))
            throw UpdateFailure("the image downloaded: \(error)", target: version)
        }
    }

    /// ApplyUpdateRequest until the provider says Proceed, waiting as long as it asks (§11.21.6.5.4); Discontinue
    /// drops the image.
    private func awaitProceed(
        token: [UInt8], version: UInt32, client: InteractionClient, endpoint: UInt16
    ) async throws(UpdateFailure) {
        for _ in 0..<DeviceConstants.otaApplyRequests {
            let answer: Provider.Commands.ApplyUpdateResponse
            do {
                answer = try await client.invoke(
                    Provider.Commands.ApplyUpdateRequest(updateToken: token, newVersion: version), endpoint: endpoint)
            } catch {
                throw UpdateFailure("ApplyUpdateRequest: \(error)", target: version)
            }
            let delay = Duration.seconds(min(answer.delayedActionTime, DeviceConstants.otaLongestDelaySeconds))
            switch answer.action {
            case .proceed:
                try? await clock.sleep(for: delay)
                return
            case .awaitNextAction:
                await transition(.delayedOnApply, reason: .delayByProvider, target: version)
                try? await clock.sleep(for: max(delay, .seconds(DeviceConstants.otaAwaitNextActionMinimumSeconds)))
            default:
                throw UpdateFailure("the provider discontinued the update", target: version)
            }
        }
        throw UpdateFailure("the provider never said Proceed", target: version)
    }

    /// The new version runs, as after a reboot: stored, announced (StartUp, VersionApplied), and the sessions others
    /// opened to it ended (the caller closed its own).
    private func apply(_ header: OTAImageHeader) async throws(UpdateFailure) {
        let before = factory
        factory.identity.softwareVersion = header.softwareVersion
        factory.identity.softwareVersionString = header.softwareVersionString
        factory.rebootCount &+= 1
        do {
            try await node.update(persisting: true) { model in
                model.node.runSoftwareVersion(header.softwareVersion, string: header.softwareVersionString)
                model.node.record(
                    Requestor.Events.VersionApplied(
                        softwareVersion: header.softwareVersion, productID: header.productID), endpoint: 0)
                Self.transition(&model, to: .idle, reason: .success, target: nil)
            }
        } catch {
            factory = before
            throw UpdateFailure("storing version \(header.softwareVersion): \(error)", target: header.softwareVersion)
        }
        log("[ota] now running version \(header.softwareVersion) (\(header.softwareVersionString))")
        await node.closeAcceptedSessions()
    }

    /// A progress step arrives in a task of its own, maybe after the download ended: it moves only a download still
    /// under way, never an idle or applying device back to downloading.
    private func showProgress(_ percent: UInt8, target: UInt32) async {
        _ = try? await node.update { model in
            model.updateClusters(on: 0) { _, cluster, node in
                guard var requestor = cluster as? OTARequestorServer, requestor.updateState == .downloading,
                    (requestor.progress ?? 0) < percent
                else { return }
                requestor.transition(to: .downloading, reason: .success, target: target, progress: percent, in: &node)
                cluster = requestor
            }
        }
    }

    private func recordDownloadError(version: UInt32, bytes: UInt64) async {
        _ = try? await node.update { model in
            model.node.record(
                Requestor.Events.DownloadError(
                    softwareVersion: version, bytesDownloaded: bytes, progressPercent: .null, platformCode: .null),
                endpoint: 0)
        }
    }

    private func transition(
        _ state: Requestor.UpdateStateEnum, reason: Requestor.ChangeReasonEnum, target: UInt32?, progress: UInt8? = nil
    ) async {
        _ = try? await node.update { model in
            Self.transition(&model, to: state, reason: reason, target: target, progress: progress)
        }
    }

    private static func transition(
        _ model: inout NodeDataModel, to state: Requestor.UpdateStateEnum, reason: Requestor.ChangeReasonEnum,
        target: UInt32?, progress: UInt8? = nil
    ) {
        model.updateClusters(on: 0) { _, cluster, node in
            guard var requestor = cluster as? OTARequestorServer else { return }
            requestor.transition(to: state, reason: reason, target: target, progress: progress, in: &node)
            cluster = requestor
        }
    }

    /// §11.21.2.3: `bdx://` + the provider's node ID (16 hexadecimal digits) + `/` + the file designator; a URI naming
    /// another node, or no designator, is no image this device fetches.
    static func designator(in uri: String, provider: UInt64) -> [UInt8]? {
        guard uri.hasPrefix("bdx://") else { return nil }
        let rest = uri.dropFirst("bdx://".count)
        guard let slash = rest.firstIndex(of: "/"), rest.distance(from: rest.startIndex, to: slash) == 16,
            UInt64(rest[..<slash], radix: 16) == provider
        else { return nil }
        let designator = rest[rest.index(after: slash)...]
        guard !designator.isEmpty, designator.utf8.count <= 0xFF else { return nil }
        return Array(designator.utf8)
    }
}

/// The download's progress in whole percents, moved on only when it grows.
private final class PercentMark: Sendable {
    private let value = Mutex<UInt8>(0)

    var latest: UInt8 { value.withLock { $0 } }

    /// Whether `got` bytes of `total` is a percent more than the last.
    func advance(_ got: UInt64, of total: UInt64?) -> Bool {
        guard let total, total > 0 else { return false }
        let now = UInt8(min(100, got * 100 / total))
        return value.withLock { last in
            guard now > last else { return false }
            last = now
            return true
        }
    }
}

/// Why an update stopped, and the version it was after when it had one.
struct UpdateFailure: Error {
    let reason: String
    let target: UInt32?

    init(_ reason: String, target: UInt32? = nil) {
        self.reason = reason
        self.target = target
    }
}
