import Foundation
import HomeRecords

/// Where one hub keeps its state: the database and the key files. Several hubs live side by side by giving each
/// its own directory (`--state DIR`).
public struct StateDirectory: Sendable, Hashable {
    /// The directory itself, created owner-only (0700).
    public let path: String

    /// The SQLite database: the fabric, the nodes and their endpoints.
    public var databasePath: String { Self.databasePath(in: path) }

    /// Where the database of the state directory `path` is, without creating anything.
    public static func databasePath(in path: String) -> String { path + "/hub.sqlite" }
    /// Private keys, one file each, owner-only (0600) in an owner-only directory (0700).
    public var keysPath: String { path + "/keys" }

    /// Resolves the directory (see `resolve`) and creates it and its `keys/` subdirectory when absent.
    public init(
        explicitPath: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StateDirectoryError) {
        try self.init(creating: Self.resolve(explicitPath: explicitPath, environment: environment))
    }

    /// Creates `path` (mode 0700) and `path/keys` (mode 0700) when absent, and checks both are writable directories.
    public init(creating path: String) throws(StateDirectoryError) {
        self.path = path
        try Self.createDirectory(path)
        try Self.createDirectory(keysPath)
        // The keys directory must never be readable by others, whoever created it.
        guard chmod(keysPath, 0o700) == 0 else { throw .cannotCreate(keysPath, reason: Self.lastError()) }
    }

    /// The explicit path when given; else `$XDG_DATA_HOME/swift-home` (when absolute, as the XDG Base Directory
    /// specification requires); else `$HOME/.local/share/swift-home`.
    public static func resolve(
        explicitPath: String?, environment: [String: String]
    ) throws(StateDirectoryError) -> String {
        if let explicitPath {
            guard !explicitPath.isEmpty else { throw .emptyPath }
            return explicitPath
        }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/swift-home"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return home + "/.local/share/swift-home"
        }
        throw .noDefault
    }

    private static func createDirectory(_ path: String) throws(StateDirectoryError) {
        let parent = (path as NSString).deletingLastPathComponent
        do {
            // Parents get the default mode; only the state directory itself is owner-only.
            try FileManager.default.createDirectory(
                atPath: parent.isEmpty ? "." : parent, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(path, reason: (error as NSError).localizedDescription)
        }
        // 0700 survives any umask; an existing directory is taken as it is.
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .cannotCreate(path, reason: lastError())
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .notADirectory(path)
        }
        guard access(path, W_OK | X_OK) == 0 else { throw .notWritable(path) }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

public enum StateDirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
    case emptyPath
    case noDefault
    case cannotCreate(String, reason: String)
    case notADirectory(String)
    case notWritable(String)

    public var description: String {
        switch self {
        case .emptyPath: "the state directory path is empty"
        case .noDefault: "no state directory: pass --state DIR, or set XDG_DATA_HOME or HOME to an absolute path"
        case .cannotCreate(let path, let reason): "cannot create the state directory \(path): \(reason)"
        case .notADirectory(let path): "the state directory \(path) exists but is not a directory"
        case .notWritable(let path): "the state directory \(path) is not writable by this user"
        }
    }
}
