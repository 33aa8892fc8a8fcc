import Foundation
import HTTPClient
import HomeHub
import HubWire
import MatterOTA

/// `home update fetch --dcl URL` or `--records FILE`: for each product of the home's devices, the newest version the
/// CSA's Distributed Compliance Ledger says one of them may take — asked of a ledger node's REST API, or read from a
/// file of its records (a home with no internet; the records' OTA URLs then name files beside it). An image the hub
/// does not hold yet is downloaded, checked against its record (size and checksum) and its own header (the record's
/// vendor, product and version), then added as `home update add` adds one: never kept unchecked.
public struct FetchUpdates: HubOperation {
    public static let name = "fetchUpdates"

    public enum Source: Codable, Sendable, Hashable {
        /// A ledger node's REST API: `https://on.dcl.csa-iot.org` is the CSA's main net.
        case ledger(url: String)
        /// A JSON file of model version records; an OTA URL may be a path relative to the file's folder.
        case records(path: String)
    }

    public let source: Source

    public init(source: Source) {
        self.source = source
    }

    public struct Reply: Codable, Sendable, Hashable {
        public let products: [Product]
    }

    public struct Product: Codable, Sendable, Hashable {
        public let vendorID: UInt16
        public let productID: UInt16
        /// The versions the home's devices of this product run.
        public let running: [UInt32]
        public let outcome: Outcome
    }

    public enum Outcome: Codable, Sendable, Hashable {
        /// The ledger has nothing later that one of them may take.
        case upToDate
        /// The hub holds that version already.
        case held(version: UInt32, versionString: String)
        case added(version: UInt32, versionString: String, bytes: UInt64)
        case failed(String)
    }

    public var access: HubAccess { .right(.firmware, structureID: nil) }
    public var summary: String { "fetch firmware updates from the DCL" }

    /// The fetch's limits, each with its reason.
    enum Limits {
        /// A ledger answer (one record, or a product's list of versions) is a few hundred bytes.
        static let answerBytes = 1 << 20
        /// A file of records for a whole home: thousands of records.
        static let recordsFileBytes = 16 << 20
    }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Reply {
        let nodes = try await ReadUpdates().run(in: scope).nodes
        let filed = try readRecordsFile()
        var running: [ProductKey: Set<UInt32>] = [:]
        for node in nodes {
            running[ProductKey(vendorID: node.vendorID, productID: node.productID), default: []].formUnion(
                node.version.map { [$0] } ?? [])
        }
        var products: [Product] = []
        for (key, versions) in running.sorted(by: { $0.key < $1.key }) where !versions.isEmpty {
            let outcome: Outcome
            do throws(DCLError) {
                outcome = try await fetch(key, running: versions, filed: filed, in: scope)
            } catch {
                outcome = .failed(error.reason)
            }
            scope.progress(.note("\(key): \(Self.describe(outcome))"))
            products.append(
                Product(vendorID: key.vendorID, productID: key.productID, running: versions.sorted(), outcome: outcome))
        }
        return Reply(products: products)
    }

    struct ProductKey: Hashable, Comparable, CustomStringConvertible {
        let vendorID: UInt16
        let productID: UInt16

        static func < (a: Self, b: Self) -> Bool { (a.vendorID, a.productID) < (b.vendorID, b.productID) }

        var description: String {
            "vendor 0x\(String(vendorID, radix: 16, uppercase: true)) product 0x\(String(productID, radix: 16, uppercase: true))"
        }
    }

    /// An outcome in words, as `home update fetch` prints it.
    public static func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .upToDate: "nothing later on the ledger"
        case .held(let version, let text): "version \(version) (\(text)) is held already"
        case .added(let version, let text, let bytes): "version \(version) (\(text)) added, \(bytes) bytes"
        case .failed(let reason): reason
        }
    }

    /// The records file, read and parsed once for every product.
    private func readRecordsFile() throws(HomeError) -> [DCLModelVersion]? {
        guard case .records(let path) = source else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw HomeError(.notFound, "cannot read \(path)")
        }
        defer { try? handle.close() }
        let bytes = Array((try? handle.read(upToCount: Limits.recordsFileBytes + 1)) ?? Data())
        guard bytes.count <= Limits.recordsFileBytes else {
            throw HomeError(.invalidArgument, "\(path) is larger than \(Limits.recordsFileBytes) bytes")
        }
        do throws(DCLError) {
            return try DCLModelVersion.records(inFile: bytes)
        } catch {
            throw HomeError(.invalidArgument, "\(path): \(error.reason)")
        }
    }

    /// The newest record one of `running` may take, fetched and added unless held.
    private func fetch(
        _ key: ProductKey, running: Set<UInt32>, filed: [DCLModelVersion]?, in scope: HubOperationScope
    ) async throws(DCLError) -> Outcome {
        guard let record = try await newest(key, running: running, filed: filed) else { return .upToDate }
        let store = scope.engine.hub.updates.images
        if store.all.contains(where: {
            $0.header.vendorID == key.vendorID && $0.header.productID == key.productID
                && $0.header.softwareVersion == record.softwareVersion
        }) {
            return .held(version: record.softwareVersion, versionString: record.softwareVersionString)
        }
        let download = try record.download()
        scope.progress(.note("\(key): downloading version \(record.softwareVersionString) from \(download.url)"))
        let bytes = try await self.bytes(of: download)
        try download.check(bytes)
        let header: OTAImageHeader
        do throws(OTAImageError) {
            header = try OTAImage(parsing: bytes).header
        } catch {
            throw DCLError("the downloaded image is not a Matter OTA image: \(error)")
        }
        guard header.vendorID == key.vendorID, header.productID == key.productID,
            header.softwareVersion == record.softwareVersion
        else {
            throw DCLError(
                "the image's header says version \(header.softwareVersion) of \(ProductKey(vendorID: header.vendorID, productID: header.productID)), not the record's"
            )
        }
        // Through the file `home update add` takes, in the hub's own folder, owner-only, gone afterwards.
        let staged = scope.engine.hub.directory.path + "/ota-fetch-\(UUID().uuidString).ota"
        guard
            FileManager.default.createFile(
                atPath: staged, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        else {
            throw DCLError("the hub cannot write \(staged)")
        }
        defer { try? FileManager.default.removeItem(atPath: staged) }
        do throws(HomeError) {
            _ = try await AddUpdateImage(path: staged, source: source.describing(download)).run(in: scope)
        } catch {
            throw DCLError(error.message)
        }
        return .added(
            version: record.softwareVersion, versionString: record.softwareVersionString, bytes: UInt64(bytes.count))
    }

    /// The newest valid record later than the oldest of `running` that one of them may take.
    private func newest(
        _ key: ProductKey, running: Set<UInt32>, filed: [DCLModelVersion]?
    ) async throws(DCLError) -> DCLModelVersion? {
        let oldest = running.min() ?? 0
        if let filed {
            return
                filed
                .filter { $0.vendorID == key.vendorID && $0.productID == key.productID }
                .filter { record in running.contains { record.applies(to: $0) } }
                .max { $0.softwareVersion < $1.softwareVersion }
        }
        guard case .ledger(let base) = source else { return nil }
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        let listing = try await get("\(root)/dcl/model/versions/\(key.vendorID)/\(key.productID)", missingIsNil: true)
        guard let listing else { return nil }
        // Newest first: the first that one of the devices may take is the one.
        for version in try DCLModelVersion.versions(inAnswer: listing).filter({ $0 > oldest }).sorted(by: >) {
            guard let answer = try await get("\(root)/dcl/model/versions/\(key.vendorID)/\(key.productID)/\(version)")
            else { continue }
            let record = try DCLModelVersion.record(inAnswer: answer)
            guard record.vendorID == key.vendorID, record.productID == key.productID, record.softwareVersion == version
            else {
                throw DCLError("the ledger answered version \(version) with another product's or version's record")
            }
            if running.contains(where: { record.applies(to: $0) }) { return record }
        }
        return nil
    }

    /// A ledger answer's body; nil for 404 when `missingIsNil` (the ledger knows no versions of the product).
    private func get(_ url: String, missingIsNil: Bool = false) async throws(DCLError) -> [UInt8]? {
        let response: HTTPClient.Response
        do throws(HTTPClientError) {
            response = try await HTTPClient.get(url, limit: Limits.answerBytes)
        } catch {
            throw DCLError("the ledger could not be asked: \(error)")
        }
        if response.status == 404, missingIsNil { return nil }
        guard response.status == 200 else { throw DCLError("\(url) answered \(response.status)") }
        return response.body
    }

    /// The image's bytes: over HTTP(S), or, for a file of records, a file it names (relative to the file's folder).
    private func bytes(of download: DCLModelVersion.Download) async throws(DCLError) -> [UInt8] {
        guard download.size <= UInt64(OTAImageStore.largestImage) else {
            throw DCLError(
                "the image is \(download.size) bytes, more than the hub takes (\(OTAImageStore.largestImage))")
        }
        let limit = Int(download.size)
        let scheme = URL(string: download.url)?.scheme?.lowercased()
        if scheme == "http" || scheme == "https" {
            let response: HTTPClient.Response
            do throws(HTTPClientError) {
                response = try await HTTPClient.get(download.url, limit: limit)
            } catch {
                throw DCLError("the image could not be downloaded: \(error)")
            }
            guard response.status == 200 else { throw DCLError("\(download.url) answered \(response.status)") }
            return response.body
        }
        // A ledger's record never names a file of this machine: only a records file the owner gave may.
        guard case .records(let recordsPath) = source else {
            throw DCLError("the ledger's OTA URL \(download.url) is not http or https")
        }
        let path: String
        if scheme == "file", let url = URL(string: download.url) {
            path = url.path(percentEncoded: false)
        } else if scheme == nil {
            path =
                download.url.hasPrefix("/")
                ? download.url : (recordsPath as NSString).deletingLastPathComponent + "/" + download.url
        } else {
            throw DCLError("the OTA URL \(download.url) is not http, https or a file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw DCLError("cannot read \(path)") }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: limit + 1)) ?? Data())
    }
}

extension FetchUpdates.Source {
    /// What an image fetched from here is noted as coming from: the URL it was downloaded from, or the records file.
    func describing(_ download: DCLModelVersion.Download) -> String {
        switch self {
        case .ledger: download.url
        case .records(let path): path
        }
    }
}

extension ReadUpdates.Image {
    /// Where it came from, in words: the folder (a file the owner added), the DCL by its host, or a file of records.
    public var origin: String {
        guard let source else { return "the folder" }
        if let host = URL(string: source)?.host(), source.hasPrefix("http") { return "the DCL (\(host))" }
        return "DCL records (\(source))"
    }

    /// python-matter-server's `update_source`: "local" for the folder's files, the ledger's test or main net else.
    public var updateSource: String {
        guard let source else { return "local" }
        return source.contains("test-net") ? "test-net-dcl" : "main-net-dcl"
    }
}
