import Foundation
import HomeHub
import HomeRecords
import Testing

@testable import HomeCommandLine

@Suite struct AddCommandTests {
    @Test(
        "without a terminal and without a code, `home add` fails at once saying what to give, and leaves no session behind"
    )
    func noTerminal() async throws {
        var template = Array((NSTemporaryDirectory() + "/swift-home-add-tests-XXXXXX").utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The test runner's standard input may be a terminal: give it /dev/null for the length of the test.
        let saved = dup(STDIN_FILENO)
        let null = open("/dev/null", O_RDONLY)
        dup2(null, STDIN_FILENO)
        defer { dup2(saved, STDIN_FILENO); close(saved); close(null) }
        for _ in 0..<2 {
            let output = await HomeCommand.run(["add", "--room", "Hall", "--name", "Lamp", "--state", directory])
            #expect(output.exitCode == 1)
            #expect(
                output.standardError
                    == "error: failedPrecondition: no terminal to ask for the device's setup code: give it in advance (CODE)\n"
            )
        }
    }

    @Test("`home grant UID` lets the user add devices and `--revoke` takes it back; a UID must be numeric")
    func grant() async throws {
        var template = Array((NSTemporaryDirectory() + "/swift-home-grant-tests-XXXXXX").utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let granted = await HomeCommand.run(["grant", "1234", "--state", directory])
        #expect(granted == .success("user 1234 may add devices to Home\n"))
        let store = try await HubStore(path: directory + "/hub.sqlite")
        let structureID = try #require(try await store.structures().first?.id)
        #expect(try await store.hasCommissioningGrant(uid: 1234, structureID: structureID))
        let revoked = await HomeCommand.run(["grant", "1234", "--revoke", "--state", directory])
        #expect(revoked == .success("user 1234 may no longer add devices to Home\n"))
        #expect(try await !store.hasCommissioningGrant(uid: 1234, structureID: structureID))
        let invalid = await HomeCommand.run(["grant", "alice", "--state", directory])
        #expect(invalid.exitCode == 2)
        #expect(invalid.standardError == "error: UID 'alice' is not a numeric user ID\n")
    }

    @Test("commands run side by side in one process each open their own --state (nothing process-wide chooses it)")
    func sideBySideCommandsKeepToTheirState() async throws {
        var directories: [String] = []
        for _ in 0..<4 {
            var template = Array((NSTemporaryDirectory() + "/swift-home-grant-tests-XXXXXX").utf8CString)
            directories.append(String(cString: try #require(mkdtemp(&template))))
        }
        defer { for directory in directories { try? FileManager.default.removeItem(atPath: directory) } }
        let outputs = await withTaskGroup(of: CommandOutput.self) { group in
            for (index, directory) in directories.enumerated() {
                group.addTask { await HomeCommand.run(["grant", "\(1000 + index)", "--state", directory]) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outputs.allSatisfy { $0.exitCode == 0 }, "\(outputs)")
        for (index, directory) in directories.enumerated() {
            let store = try await HubStore(path: directory + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first?.id)
            for other in 0..<directories.count {
                let granted = try await store.hasCommissioningGrant(
                    uid: UInt32(1000 + other), structureID: structureID)
                #expect(granted == (other == index))
            }
        }
    }
}
