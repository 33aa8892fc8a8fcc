import Synchronization
import Testing

@testable import HomeCommandLine

@Suite struct DemoTranscriptTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the device did not answer" }
    }

    @Test("a step that throws prints a ✗ line and fails naming the step and the reason; the steps before it printed ✓")
    func failingStep() async throws {
        let lines = Mutex<[String]>([])
        let transcript = DemoTranscript { line in lines.withLock { $0.append(line) } }
        let value = try await transcript.step("first") { () async throws -> (Int, String) in (7, "did the first") }
        #expect(value == 7)
        do {
            try await transcript.step("adding Kitchen light") { () async throws -> (Void, String) in throw Broken() }
            Issue.record("the step returned")
        } catch {
            #expect(error.description == "adding Kitchen light: the device did not answer")
        }
        let printed = lines.withLock { $0 }.map { $0.replacing(/\d+ ms$/, with: "N ms") }
        #expect(printed == ["✓ did the first in N ms", "✗ adding Kitchen light failed after N ms"])
    }

    @Test("a step still running at its limit fails as having no answer")
    func boundedStep() async throws {
        let transcript = DemoTranscript { _ in }
        do {
            try await transcript.step("watching Bedroom sensor", limit: .milliseconds(50)) {
                () async throws -> (Void, String) in
                try await Task.sleep(for: .seconds(60))
                return ((), "never")
            }
            Issue.record("the step returned")
        } catch {
            #expect(error.description == "watching Bedroom sensor: no answer within 0.05 seconds")
        }
    }
}
