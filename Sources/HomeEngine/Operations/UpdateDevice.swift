import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterNode
import MatterOTA
import MatterTLV
import Synchronization

/// `home update DEVICE [--version N]`: the hub, the device's OTA provider (Matter Core §11.21), tells the device an
/// update is waiting (AnnounceOTAProvider) and follows it: the device asks, downloads (progress in percent and rate),
/// applies, and the update ends when the device itself reports the new version.
public struct UpdateDevice: HubOperation {
    public static let name = "updateDevice"
    public let nodeID: UInt64
    /// A version of the hub's folder to install; nil: the newest the device may take.
    public let version: UInt32?
    /// Whether it answers once the device runs the new version, or once the device was told (the Matter-server API's
    /// `update_node`: Home Assistant follows the device's UpdateState itself).
    public let untilApplied: Bool

    public init(nodeID: UInt64, version: UInt32? = nil, untilApplied: Bool = true) {
        self.nodeID = nodeID
        self.version = version
        self.untilApplied = untilApplied
    }

    public struct Reply: Codable, Sendable, Hashable {
        public let from: UInt32
        public let to: UInt32
        public let versionString: String
        public let releaseNotesURL: String?
    }

    public var access: HubAccess { .nodeRight(.devices, nodeID: nodeID) }
    public var summary: String { "update a device's firmware" }

    private typealias Requestor = OtaSoftwareUpdateRequestorCluster

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Reply {
        let engine = scope.engine
        guard let record = engine.model.devices(of: nodeID)?.first?.node else {
            throw HomeError(.notFound, "node \(HubEngine.nodeDeviceID(nodeID)) is not in the home")
        }
        // Two updates of one device at once would announce twice and follow one download: the second is refused.
        guard engine.updating.withLock({ $0.insert(nodeID).inserted }) else {
            throw HomeError(
                .failedPrecondition, "an update of this device is already under way: wait for it to end")
        }
        defer { engine.updating.withLock { _ = $0.remove(nodeID) } }
        let connection = try await engine.live.connection(to: nodeID)
        _ = try? await connection.connected()
        guard let current = ReadUpdates.running(engine.model.view(of: nodeID)?.cache).version else {
            throw HomeError(.unavailable, "the device has not reported its software version: is it online?")
        }
        let served = (try? await connection.cache.value(DescriptorCluster.Attributes.serverList, endpoint: 0)) ?? []
        guard served.contains(Requestor.id) else {
            throw HomeError(
                .failedPrecondition, "the device has no OTA Software Update Requestor: it takes no updates from the hub"
            )
        }
        let images = engine.hub.updates.images
        let entry: OTAImageStore.Entry
        if let version {
            guard
                let chosen = images.all.first(where: {
                    $0.header.vendorID == record.vendorID && $0.header.productID == record.productID
                        && $0.header.softwareVersion == version
                })
            else {
                throw HomeError(
                    .notFound, "the hub holds no image of version \(version) for this device (home updates)")
            }
            guard chosen.header.isUpgrade(from: current) else {
                throw HomeError(
                    .failedPrecondition,
                    "version \(version) is not for a device running version \(current)")
            }
            entry = chosen
        } else {
            guard
                let newest = images.newest(vendorID: record.vendorID, productID: record.productID, applyingTo: current)
            else {
                throw HomeError(
                    .notFound,
                    "no image in the hub's folder is newer than version \(current) for this device (home update add FILE)"
                )
            }
            entry = newest
        }
        let provider = engine.hub.updates
        provider.pin(entry, for: nodeID)
        let events = provider.events()
        do {
            _ = try await connection.invoke(
                endpoint: 0, cluster: Requestor.id.rawValue,
                command: Requestor.Commands.AnnounceOTAProvider.id.rawValue,
                fields: Requestor.Commands.AnnounceOTAProvider(
                    providerNodeID: engine.hub.authority.hubNodeID, vendorID: FabricAuthority.adminVendorID,
                    announcementReason: .updateAvailable, endpoint: 0
                ).tlvValue(), timedWindow: nil)
        } catch {
            provider.pin(nil, for: nodeID)
            throw HomeError(error, command: "AnnounceOTAProvider")
        }
        scope.progress(.note("told the device version \(entry.header.softwareVersionString) is waiting"))
        let target = entry.header.softwareVersion
        guard untilApplied else {
            return Reply(
                from: current, to: target, versionString: entry.header.softwareVersionString,
                releaseNotesURL: entry.header.releaseNotesURL)
        }
        let outcome = await Self.follow(events, of: nodeID, target: target, progress: scope.progress)
        provider.pin(nil, for: nodeID)
        try outcome.get()
        try await Self.confirm(target, of: nodeID, in: engine.model)
        return Reply(
            from: current, to: target, versionString: entry.header.softwareVersionString,
            releaseNotesURL: entry.header.releaseNotesURL)
    }

    /// The provider's events for the node, until it applied the image or the update failed.
    private static func follow(
        _ events: AsyncStream<OTAProvider.Event>, of nodeID: UInt64, target: UInt32,
        progress: @escaping @Sendable (HubProgress) -> Void
    ) async -> Result<Void, HomeError> {
        let stage = UpdateStage()
        return await withTaskGroup(of: Result<Void, HomeError>.self) { group in
            group.addTask {
                var shownPercent = -1
                var started: ContinuousClock.Instant?
                for await event in events {
                    switch event {
                    case .offered(nodeID, let version) where version == target:
                        stage.set("the device was downloading version \(version)")
                        progress(.note("the device asked for version \(version): downloading"))
                    case .offered(nodeID, let version):
                        return .failure(
                            HomeError(.failedPrecondition, "the device asked for version \(version), not \(target)"))
                    case .busy(nodeID):
                        stage.set("the device was waiting for a place among the hub's transfers")
                        progress(
                            .note(
                                "the hub is serving other updates: the device asks again in \(OTAProvider.busyRetrySeconds) s"
                            ))
                    case .transferred(nodeID, let sent, let total):
                        let now = ContinuousClock.now
                        if started == nil { started = now }
                        let percent = total == 0 ? 100 : Int(sent * 100 / total)
                        guard percent > shownPercent else { continue }
                        shownPercent = percent
                        let seconds = started.map { (now - $0).inSeconds } ?? 0
                        progress(.transfer(percent: percent, bytesPerSecond: seconds > 0 ? Double(sent) / seconds : 0))
                    case .transferEnded(nodeID, .finished):
                        stage.set("the device had downloaded the image and not asked to apply it")
                        progress(.note("downloaded"))
                    case .transferEnded(nodeID, let end): return .failure(HomeError(.unavailable, "\(end)"))
                    case .applying(nodeID, let version):
                        stage.set(
                            "the device was applying version \(version) and never said it runs it (it may have restarted on its old version)"
                        )
                        progress(.note("applying"))
                    case .applied(nodeID, let version):
                        guard version == target else {
                            return .failure(
                                HomeError(.internal, "the device says it applied version \(version), not \(target)"))
                        }
                        return .success(())
                    default: continue
                    }
                }
                return .failure(HomeError(.unavailable, "the hub stopped"))
            }
            group.addTask {
                try? await Task.sleep(for: HubEngineTiming.updateQuery)
                if !stage.isSet {
                    return .failure(
                        HomeError(
                            .deadlineExceeded,
                            "the device did not ask for the image within \(HubEngineTiming.updateQuery.spoken)"))
                }
                try? await Task.sleep(for: HubEngineTiming.updateLimit - HubEngineTiming.updateQuery)
                return .failure(
                    HomeError(
                        .deadlineExceeded,
                        "the update did not end within \(HubEngineTiming.updateLimit.spoken): \(stage.stage ?? "")"))
            }
            let first = await group.next() ?? .failure(HomeError(.internal, "no outcome"))
            group.cancelAll()
            return first
        }
    }

    /// Until the device itself reports `version` (after its reboot, over the hub's live connection).
    private static func confirm(_ version: UInt32, of nodeID: UInt64, in model: HomeModel) async throws(HomeError) {
        let confirmed = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                let changes = model.changes(.node(nodeID))
                if ReadUpdates.running(model.view(of: nodeID)?.cache).version == version { return true }
                for await _ in changes {
                    if ReadUpdates.running(model.view(of: nodeID)?.cache).version == version { return true }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: HubEngineTiming.updateConfirmation)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard confirmed else {
            throw HomeError(
                .deadlineExceeded,
                "the device applied version \(version) but has not reported it within \(HubEngineTiming.updateConfirmation.spoken)"
            )
        }
    }
}

/// How far the update got, in words, once the device asked for its image (the follow's two tasks share it): what a
/// time-out names.
private final class UpdateStage: Sendable {
    private let value = Mutex<String?>(nil)

    var isSet: Bool { value.withLock { $0 != nil } }
    var stage: String? { value.withLock { $0 } }

    func set(_ stage: String) {
        value.withLock { $0 = stage }
    }
}
