import Dispatch
import Foundation
import MatterOTA
import MatterPlatform
import Synchronization

/// The firmware images the hub offers its devices: `.ota` files (Matter Core §11.21.2) in the state directory's
/// `ota-images/`, each checked whole (sizes, digest, header policies) before it is kept, and named for what it is,
/// `VVVV-PPPP-VERSION.ota` in hexadecimal vendor and product and decimal version, which is also the BDX file designator
/// a device asks for. Their headers are read when the store opens and kept in memory: the provider answers a
/// device's QueryImage from them without touching the disk.
public final class OTAImageStore: Sendable {
    /// One image held.
    public struct Entry: Sendable, Hashable {
        public let header: OTAImageHeader
        /// Its file's name in the folder, and what a device's ReceiveInit names.
        public let designator: String
        public let size: UInt64
        /// Where it came from when not from a file the owner added: the DCL URL it was fetched from (kept beside it
        /// as `<designator>.source`).
        public let source: String?
    }

    public let directory: String
    /// The largest image the store takes (`HubConstants.otaImageMaxBytes`).
    public static let largestImage = HubConstants.otaImageMaxBytes
    private let entries: Mutex<[String: Entry]>
    /// Files read and written off the cooperative pool.
    private let queue = DispatchQueue(label: "swift-home.ota-images")

    /// Opens the folder (creating it), reading every image's header; a file that is not a readable image is left
    /// where it is and named in `unreadable`, with why.
    public init(directory: String) async throws(OTAImageStoreError) {
        self.directory = directory
        let found = try await queue.perform { () throws(OTAImageStoreError) -> ([String: Entry], [String: String]) in
            try Self.scan(directory)
        }
        entries = Mutex(found.0)
        unreadable = found.1
    }

    /// The files of the folder that are not images it can offer, each with the reason.
    public let unreadable: [String: String]

    /// Every image held, by vendor, product and version.
    public var all: [Entry] {
        entries.withLock { Array($0.values) }.sorted {
            ($0.header.vendorID, $0.header.productID, $0.header.softwareVersion)
                < ($1.header.vendorID, $1.header.productID, $1.header.softwareVersion)
        }
    }

    public func entry(designator: String) -> Entry? {
        entries.withLock { $0[designator] }
    }

    /// The newest image for the vendor and product that a device running `version` may take: a later version whose
    /// applicable range, when its header gives one, holds `version`.
    public func newest(vendorID: UInt16, productID: UInt16, applyingTo version: UInt32) -> Entry? {
        entries.withLock { held in
            held.values.filter {
                $0.header.vendorID == vendorID && $0.header.productID == productID && $0.header.isUpgrade(from: version)
            }.max { $0.header.softwareVersion < $1.header.softwareVersion }
        }
    }

    /// Checks the file at `path` whole, asks `accepting` about its header (it throws to refuse), and copies it in;
    /// one block on the store's queue, so two adds never interleave. The same image again is no change; a different
    /// file for a vendor, product and version already held is refused (two images never share a designator).
    @discardableResult
    public func add(
        fileAt path: String, source: String? = nil,
        accepting: @escaping @Sendable (OTAImageHeader) throws(OTAImageStoreError) -> Void = { _ in }
    ) async throws(OTAImageStoreError) -> Entry {
        let directory = directory
        return try await queue.perform { () throws(OTAImageStoreError) -> Entry in
            let (header, bytes) = try Self.readImage(at: path)
            try accepting(header)
            let entry = Self.entry(for: header, size: UInt64(bytes.count), source: source)
            if let held = self.entry(designator: entry.designator) {
                let kept = try Self.read(directory + "/" + held.designator, limit: HubConstants.otaImageMaxBytes)
                guard kept == bytes else { throw .differentImageHeld(entry.designator) }
                return held
            }
            // The source first: a crash before the image leaves a note about nothing, never an image misattributed.
            let note = directory + "/" + entry.designator + Self.sourceSuffix
            if let source {
                try Self.write(Array(source.utf8), to: note)
            } else {
                unlink(note)
            }
            try Self.write(bytes, to: directory + "/" + entry.designator)
            self.entries.withLock { $0[entry.designator] = entry }
            return entry
        }
    }

    private static func readImage(
        at path: String
    ) throws(OTAImageStoreError) -> (header: OTAImageHeader, bytes: [UInt8]) {
        let bytes = try read(path, limit: HubConstants.otaImageMaxBytes)
        do throws(OTAImageError) {
            return (try OTAImage(parsing: bytes).header, bytes)
        } catch {
            throw .notAnImage(path, error)
        }
    }

    /// The file of `entry`, checked again whole (a file changed on disk since it was added is not served).
    public func contents(of entry: Entry) async throws(OTAImageStoreError) -> [UInt8] {
        let path = directory + "/" + entry.designator
        return try await queue.perform { () throws(OTAImageStoreError) -> [UInt8] in
            let bytes = try Self.read(path, limit: HubConstants.otaImageMaxBytes)
            do {
                guard try OTAImage(parsing: bytes).header == entry.header else {
                    throw OTAImageStoreError.changedOnDisk(path)
                }
            } catch let error as OTAImageStoreError {
                throw error
            } catch {
                throw .notAnImage(path, error as? OTAImageError ?? .malformed("\(error)"))
            }
            return bytes
        }
    }

    static func entry(for header: OTAImageHeader, size: UInt64, source: String?) -> Entry {
        Entry(
            header: header,
            designator: String(format: "%04X-%04X-%u.ota", header.vendorID, header.productID, header.softwareVersion),
            size: size, source: source)
    }

    private static func scan(_ directory: String) throws(OTAImageStoreError) -> ([String: Entry], [String: String]) {
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw .cannotWrite(directory, reason: String(cString: strerror(errno)))
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .cannotRead(directory, reason: "\(error)")
        }
        var found: [String: Entry] = [:]
        var unreadable: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".ota") {
            do {
                let prefix = try read(
                    directory + "/" + name,
                    limit: Int(OTAImageLimits.headerBytes) + OTAImageHeader.fixedHeaderSize, partial: true)
                let (size, header) = try OTAImageHeader.parse(prefix)
                let note = try? read(directory + "/" + name + sourceSuffix, limit: 1024, partial: true)
                let entry = entry(for: header, size: size, source: note.map { String(decoding: $0, as: UTF8.self) })
                guard entry.designator == name else {
                    unreadable[name] = "its header says it is \(entry.designator)"
                    continue
                }
                found[name] = entry
            } catch {
                unreadable[name] = "\(error)"
            }
        }
        return (found, unreadable)
    }

    /// The suffix of the note beside an image saying where it came from.
    static let sourceSuffix = ".source"

    /// The file's bytes, refused past `limit` (or, `partial`, its first `limit` bytes).
    private static func read(_ path: String, limit: Int, partial: Bool = false) throws(OTAImageStoreError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotRead(path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + (partial ? 0 : 1)) ?? Data()
            guard partial || data.count <= limit else { throw OTAImageStoreError.tooLarge(path, limit: limit) }
            return Array(data)
        } catch let error as OTAImageStoreError {
            throw error
        } catch {
            throw .cannotRead(path, reason: "\(error)")
        }
    }

    /// Written beside its final name and renamed over it: a crash leaves the old file or the new one, never half.
    private static func write(_ bytes: [UInt8], to path: String) throws(OTAImageStoreError) {
        let temporary = path + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw .cannotWrite(temporary, reason: String(cString: strerror(errno)))
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path, reason: reason)
        }
    }
}

public enum OTAImageStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAnImage(String, OTAImageError)
    case tooLarge(String, limit: Int)
    case differentImageHeld(String)
    case changedOnDisk(String)
    /// The image is sound but not wanted here (`add`'s `accepting` said why).
    case refused(String)
    case cannotRead(String, reason: String)
    case cannotWrite(String, reason: String)

    public var description: String {
        switch self {
        case .notAnImage(let path, let error): "\(path): \(error)"
        case .tooLarge(let path, let limit): "\(path) is larger than \(limit / (1 << 20)) MiB, the largest image taken"
        case .differentImageHeld(let designator):
            "another image of the same vendor, product and version is already held (\(designator)): one version is one image"
        case .changedOnDisk(let path): "\(path) changed since it was added"
        case .refused(let reason): reason
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
