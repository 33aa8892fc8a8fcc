import HomeHub
import HubWire
import MatterOTA
import Synchronization

/// `home update add FILE`: a firmware image checked whole and copied into the hub's folder, for the devices of the
/// home that may take it. An image for no device of the home (another vendor or product, or a version range none of
/// them is in) is refused, and nothing is stored.
public struct AddUpdateImage: HubOperation {
    public static let name = "addUpdateImage"
    /// Where the hub reads the file: an absolute path (the hub may run in another directory than its client).
    public let path: String
    /// Where the image came from when not a file of the owner's (`FetchUpdates`: the DCL URL); nil: a file.
    public let source: String?

    public init(path: String, source: String? = nil) {
        self.path = path
        self.source = source
    }

    public struct Reply: Codable, Sendable, Hashable {
        public let image: ReadUpdates.Image
        /// The nodes that may take it now.
        public let nodes: [UInt64]
    }

    public var access: HubAccess { .right(.firmware, structureID: nil) }
    public var summary: String { "add a firmware image" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Reply {
        guard path.hasPrefix("/") else { throw HomeError(.invalidArgument, "\(path) is not an absolute path") }
        let nodes = try await ReadUpdates().run(in: scope).nodes
        let takers = Mutex<[UInt64]>([])
        let entry: OTAImageStore.Entry
        do {
            // Judged on the header of the very bytes that are kept.
            entry = try await scope.engine.hub.updates.images.add(fileAt: path, source: source) {
                header throws(OTAImageStoreError) in
                let found = try Self.takers(of: header, among: nodes)
                takers.withLock { $0 = found }
            }
        } catch {
            throw HomeError(.invalidArgument, error.description)
        }
        return Reply(image: ReadUpdates.Image(entry), nodes: takers.withLock { $0 })
    }

    /// The nodes that may take the image: of its vendor and product, and either at a version it upgrades or yet to
    /// report theirs (which is not held against it); none is a refusal saying why.
    private static func takers(
        of header: OTAImageHeader, among nodes: [ReadUpdates.Node]
    ) throws(OTAImageStoreError) -> [UInt64] {
        let sameProduct = nodes.filter { $0.vendorID == header.vendorID && $0.productID == header.productID }
        guard !sameProduct.isEmpty else {
            throw .refused(
                "the image is for vendor 0x\(hex(header.vendorID)) product 0x\(hex(header.productID)); "
                    + "no device of this home is that product")
        }
        let takers = sameProduct.filter { node in node.version.map { header.isUpgrade(from: $0) } ?? true }
        guard !takers.isEmpty else {
            let versions = sameProduct.compactMap(\.versionString).joined(separator: ", ")
            throw .refused(
                "no device of this home may take version \(header.softwareVersion) (\(header.softwareVersionString))"
                    + "\(range(header)): they run \(versions)")
        }
        return takers.map(\.nodeID)
    }

    private static func hex(_ value: UInt16) -> String {
        String(value, radix: 16, uppercase: true)
    }

    private static func range(_ header: OTAImageHeader) -> String {
        switch (header.minApplicableSoftwareVersion, header.maxApplicableSoftwareVersion) {
        case (let minimum?, let maximum?): " for devices at versions \(minimum) to \(maximum)"
        case (let minimum?, nil): " for devices at version \(minimum) or later"
        case (nil, let maximum?): " for devices at version \(maximum) or earlier"
        case (nil, nil): ""
        }
    }
}
