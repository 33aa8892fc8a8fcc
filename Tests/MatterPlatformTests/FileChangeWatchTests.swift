import Foundation
import MatterPlatform
import Synchronization
import Testing

@Suite struct FileChangeWatchTests {
    @Test func eachSignalWakesTheWatch() async throws {
        let directory = NSTemporaryDirectory() + "/swift-home-watch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (wakes, wake) = AsyncStream<Void>.makeStream()
        let watch = try FileChangeWatch(directory: directory) { wake.yield() }
        var iterator = wakes.makeAsyncIterator()
        // Bounded: a watch that never wakes ends the stream, failing the expectations below instead of hanging.
        let limit = Task {
            try? await Task.sleep(for: .seconds(10))
            wake.finish()
        }
        defer { limit.cancel() }

        FileChangeWatch.signal(directory + "/marker")
        #expect(await iterator.next() != nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/marker")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        // Another signal after the first wakes it again: the watch re-arms once it has drained its events.
        FileChangeWatch.signal(directory + "/marker")
        #expect(await iterator.next() != nil)
        withExtendedLifetime(watch) {}
    }

    @Test func aDirectoryThatDoesNotExistIsAnError() {
        #expect(throws: SocketError.self) { try FileChangeWatch(directory: "/nonexistent/swift-home") {} }
    }
}
