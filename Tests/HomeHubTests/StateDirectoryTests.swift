import Foundation
import HomeRecords
import Testing

@testable import HomeHub

@Suite struct StateDirectoryTests {
    @Test func anExplicitPathWins() throws {
        let path = try StateDirectory.resolve(
            explicitPath: "/srv/hub-a", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"])
        #expect(path == "/srv/hub-a")
    }

    @Test func xdgDataHomeComesNext() throws {
        let path = try StateDirectory.resolve(
            explicitPath: nil, environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"])
        #expect(path == "/data/swift-home")
    }

    @Test func homeIsTheLastResort() throws {
        #expect(
            try StateDirectory.resolve(explicitPath: nil, environment: ["HOME": "/home/me"])
                == "/home/me/.local/share/swift-home")
        // XDG Base Directory: a relative XDG_DATA_HOME is invalid and ignored.
        #expect(
            try StateDirectory.resolve(explicitPath: nil, environment: ["XDG_DATA_HOME": "data", "HOME": "/home/me"])
                == "/home/me/.local/share/swift-home")
    }

    @Test func noPathAtAllIsAClearError() {
        #expect(throws: StateDirectoryError.noDefault) {
            try StateDirectory.resolve(explicitPath: nil, environment: [:])
        }
        #expect(
            "\(StateDirectoryError.noDefault)"
                == "no state directory: pass --state DIR, or set XDG_DATA_HOME or HOME to an absolute path")
        #expect(throws: StateDirectoryError.emptyPath) {
            try StateDirectory.resolve(explicitPath: "", environment: ["HOME": "/h"])
        }
    }

    @Test func createsOwnerOnlyDirectoriesWithTheirParents() async throws {
        try await withTemporaryDirectory { base in
            let directory = try StateDirectory(explicitPath: base + "/nested/hub")
            #expect(directory.databasePath == base + "/nested/hub/hub.sqlite")
            #expect(directory.keysPath == base + "/nested/hub/keys")
            #expect(permissions(directory.path) == 0o700)
            #expect(permissions(directory.keysPath) == 0o700)
            // Opening again finds everything in place.
            #expect(try StateDirectory(explicitPath: base + "/nested/hub") == directory)
        }
    }

    @Test func aKeysDirectoryOpenToOthersIsClosedAgain() async throws {
        try await withTemporaryDirectory { base in
            let directory = try StateDirectory(creating: base + "/hub")
            chmod(directory.keysPath, 0o755)
            _ = try StateDirectory(creating: base + "/hub")
            #expect(permissions(directory.keysPath) == 0o700)
        }
    }

    @Test func aFileInTheWayIsNamed() async throws {
        try await withTemporaryDirectory { base in
            let path = base + "/hub"
            #expect(
                FileManager.default.createFile(atPath: path, contents: Array("x".utf8).withUnsafeBytes { Data($0) }))
            #expect(throws: StateDirectoryError.notADirectory(path)) { try StateDirectory(creating: path) }
            #expect(
                "\(StateDirectoryError.notADirectory(path))"
                    == "the state directory \(path) exists but is not a directory")
        }
    }
}
