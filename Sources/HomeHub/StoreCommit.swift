import Foundation
import HomeRecords
import Synchronization

/// A committed write to a home's store, as this process's home model hears of it: the change counter before and after
/// the transaction (nil while the store has no counter yet: its first migrations), and the nodes whose rows it may
/// have changed (nil: anything in the home). Rooms and structures are small enough to re-read after every commit.
public struct StoreCommit: Sendable {
    public let counterBefore: Int64?
    public let counterAfter: Int64?
    public let nodes: Set<UInt64>?
}

/// Who hears of the commits to each store file of this process, whichever `HubStore` connection made them: the home
/// model, which must see a write made through any connection (the commissioner's, a test's) before the writer's
/// call returns. Other processes' commits are heard through `FileChangeWatch` instead.
enum StoreCommitObservers {
    private struct Registry {
        var observers: [String: [Int: @Sendable (StoreCommit) -> Void]] = [:]
        var nextID = 0
    }

    private static let registry = Mutex(Registry())

    /// Observes commits to the database at `path` (canonical) until the returned token is released.
    static func observe(_ path: String, _ observer: @escaping @Sendable (StoreCommit) -> Void) -> StoreCommitToken {
        let id = registry.withLock { registry in
            registry.nextID += 1
            registry.observers[path, default: [:]][registry.nextID] = observer
            return registry.nextID
        }
        return StoreCommitToken {
            registry.withLock { registry in
                registry.observers[path]?[id] = nil
                if registry.observers[path]?.isEmpty == true { registry.observers[path] = nil }
            }
        }
    }

    static func committed(_ commit: StoreCommit, to path: String) {
        let observers = registry.withLock { $0.observers[path].map { Array($0.values) } ?? [] }
        for observer in observers { observer(commit) }
    }

    /// The path every connection to one file agrees on: symbolic links and `.`/`..` resolved.
    static func canonical(_ path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        guard let resolved = realpath(directory.isEmpty ? "." : directory, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + (path as NSString).lastPathComponent
    }
}

/// Keeps an observation alive; releasing it stops it.
public final class StoreCommitToken: Sendable {
    private let cancel: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) {
        self.cancel = cancel
    }

    deinit {
        cancel()
    }
}
