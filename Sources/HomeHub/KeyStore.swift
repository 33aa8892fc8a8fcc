import Foundation
import HomeRecords
import MatterCrypto
import MatterPlatform

/// The hub's private keys, one raw P-256 scalar per file in the state directory's `keys/`, readable by the
/// owner only. Nothing here prints a key: errors name files, never contents.
/// File names carry the fabric ID, so two processes creating a fabric at once never overwrite each other's keys.
public struct KeyStore: Sendable {
    /// The roles of the keys the hub owns.
    public enum Role: String, Sendable, CaseIterable {
        /// Signs the fabric's root certificate (RCAC) and whatever the root issues.
        case rootCA = "rcac"
        /// Signs NOCs when the fabric has an intermediate (ICAC).
        case intermediateCA = "icac"
        /// The hub's own operational key: its identity in CASE.
        case hubOperational = "operational"
    }

    public let directory: String

    public init(directory: StateDirectory) {
        self.directory = directory.keysPath
    }

    /// `keys/<fabric ID in hex>-<role>.key`.
    public func path(of role: Role, fabricID: UInt64) -> String {
        directory + "/" + String(fabricID, radix: 16, uppercase: true) + "-" + role.rawValue + ".key"
    }

    /// Writes the key atomically: a 0600 temporary file, fsync, rename over the old one, fsync of the directory.
    /// A crash leaves either the old file or the new one, never half of one.
    public func save(_ privateKey: P256.PrivateKey, as role: Role, fabricID: UInt64) async throws(KeyStoreError) {
        try await Self.files.perform { [self] () throws(KeyStoreError) in
            try writeFile(privateKey, as: role, fabricID: fabricID)
        }
    }

    /// Reads the key back, refusing a file that others could read or that is not one P-256 scalar.
    public func load(_ role: Role, fabricID: UInt64) async throws(KeyStoreError) -> P256.PrivateKey {
        try await Self.files.perform { [self] () throws(KeyStoreError) in try readFile(role, fabricID: fabricID) }
    }

    /// Key files are read and written on this queue, never on a cooperative thread (a save waits for two fsyncs).
    private static let files = DispatchQueue(label: "swift-home.keys")

    private func writeFile(_ privateKey: P256.PrivateKey, as role: Role, fabricID: UInt64) throws(KeyStoreError) {
        let finalPath = path(of: role, fabricID: fabricID)
        let temporaryPath = finalPath + ".tmp"
        unlink(temporaryPath)
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .write(finalPath, reason: Self.lastError()) }
        // open's mode passes through the umask; this one must not.
        fchmod(descriptor, 0o600)
        let bytes = privateKey.rawRepresentation
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporaryPath, finalPath) == 0 else {
            let reason = written == bytes.count ? Self.lastError() : "short write"
            unlink(temporaryPath)
            throw .write(finalPath, reason: reason)
        }
        try syncDirectory()
    }

    private func readFile(_ role: Role, fabricID: UInt64) throws(KeyStoreError) -> P256.PrivateKey {
        let filePath = path(of: role, fabricID: fabricID)
        var status = stat()
        guard stat(filePath, &status) == 0 else {
            throw errno == ENOENT ? .missing(filePath) : .read(filePath, reason: Self.lastError())
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else { throw .tooOpen(filePath, mode: UInt16(permissions)) }
        guard status.st_size == Int64(Self.keyLength) else {
            throw .malformed(filePath, reason: "\(status.st_size) bytes, expected \(Self.keyLength)")
        }
        guard let contents = FileManager.default.contents(atPath: filePath) else {
            throw .read(filePath, reason: "cannot read the file")
        }
        do {
            return try P256.PrivateKey(rawRepresentation: Array(contents))
        } catch {
            throw .malformed(filePath, reason: "not a P-256 private key")
        }
    }

    /// The length of a raw P-256 scalar.
    static let keyLength = 32

    /// Makes the renames durable: a crash after `save` returns must not bring the old file back.
    private func syncDirectory() throws(KeyStoreError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .write(directory, reason: Self.lastError()) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .write(directory, reason: Self.lastError()) }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

public enum KeyStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    case missing(String)
    case tooOpen(String, mode: UInt16)
    case malformed(String, reason: String)
    case read(String, reason: String)
    case write(String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): "key file \(path) is missing"
        case .tooOpen(let path, let mode):
            "key file \(path) has mode 0\(String(mode, radix: 8)): others may read it; expected 0600"
        case .malformed(let path, let reason): "key file \(path) is damaged: \(reason)"
        case .read(let path, let reason): "cannot read key file \(path): \(reason)"
        case .write(let path, let reason): "cannot write key file \(path): \(reason)"
        }
    }
}
