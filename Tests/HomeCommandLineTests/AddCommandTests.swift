import Foundation
import Testing
@testable import HomeCommandLine

@Suite struct AddCommandTests {
    @Test("without a terminal and without a code, `home add` fails at once saying what to give, and leaves no session behind")
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
            #expect(output.standardError == "error: failedPrecondition: no terminal to ask for the device's setup code: give it in advance (CODE)\n")
        }
    }
}
