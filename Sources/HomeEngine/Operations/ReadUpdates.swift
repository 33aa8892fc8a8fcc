import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction
import MatterOTA

/// `home updates`: each node's software version as it reports it, and the newest image of the hub's folder it may take;
/// and every image the folder holds.
public struct ReadUpdates: HubOperation {
    public static let name = "readUpdates"

    public init() {}

    public struct Image: Codable, Sendable, Hashable {
        public let vendorID: UInt16
        public let productID: UInt16
        public let version: UInt32
        public let versionString: String
        public let size: UInt64
        public let file: String
        /// The versions it may replace, as its header bounds them.
        public let minimumApplicable: UInt32?
        public let maximumApplicable: UInt32?
        public let releaseNotesURL: String?
        /// The DCL URL it was fetched from (`home update fetch`); nil: a file the owner added.
        public let source: String?
    }

    public struct Node: Codable, Sendable, Hashable {
        public let nodeID: UInt64
        /// The node's devices' names, in endpoint order.
        public let names: [String]
        public let vendorID: UInt16
        public let productID: UInt16
        /// As the node last reported it; nil before it ever did.
        public let version: UInt32?
        public let versionString: String?
        /// The newest image of the folder it may take; nil when none.
        public let available: Image?
    }

    public struct Reply: Codable, Sendable, Hashable {
        public let nodes: [Node]
        public let images: [Image]
        /// The folder's files it does not offer, each "FILE: why" (found when the hub opened).
        public let unreadable: [String]
    }

    public var access: HubAccess { .member }
    public var summary: String { "read the firmware updates" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Reply {
        let images = scope.engine.hub.updates.images
        // A node that has not reported its version in this process is asked (followed, as `home devices --live`
        // does, for at most `HubEngineTiming.firstContact`).
        let unknown = scope.engine.model.snapshot.devices.keys.filter {
            Self.running(scope.engine.model.view(of: $0)?.cache).version == nil
        }
        if !unknown.isEmpty { await scope.engine.live.follow(unknown.sorted()) }
        let snapshot = scope.engine.model.snapshot
        let nodes = snapshot.devices.keys.sorted().compactMap { nodeID -> Node? in
            guard let devices = snapshot.devices[nodeID], let record = devices.first?.node else { return nil }
            let running = Self.running(snapshot.views[nodeID]?.cache)
            return Node(
                nodeID: nodeID, names: devices.map(\.name), vendorID: record.vendorID, productID: record.productID,
                version: running.version, versionString: running.versionString,
                available: running.version.flatMap {
                    images.newest(vendorID: record.vendorID, productID: record.productID, applyingTo: $0)
                }.map(Image.init))
        }
        return Reply(
            nodes: nodes, images: images.all.map(Image.init),
            unreadable: images.unreadable.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
    }

    /// The software version a node reported (Basic Information of its root endpoint).
    static func running(_ cache: AttributeCache?) -> (version: UInt32?, versionString: String?) {
        guard let cache else { return (nil, nil) }
        return (
            try? cache.value(BasicInformationCluster.Attributes.softwareVersion, endpoint: 0),
            try? cache.value(BasicInformationCluster.Attributes.softwareVersionString, endpoint: 0)
        )
    }
}

extension ReadUpdates.Image {
    init(_ entry: OTAImageStore.Entry) {
        self.init(
            vendorID: entry.header.vendorID, productID: entry.header.productID, version: entry.header.softwareVersion,
            versionString: entry.header.softwareVersionString, size: entry.size, file: entry.designator,
            minimumApplicable: entry.header.minApplicableSoftwareVersion,
            maximumApplicable: entry.header.maxApplicableSoftwareVersion, releaseNotesURL: entry.header.releaseNotesURL,
            source: entry.source)
    }
}
