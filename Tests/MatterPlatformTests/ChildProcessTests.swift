import Foundation
import MatterPlatform
import Testing

/// Child processes as `posix_spawn` starts them: how they end, what they are given, and what they are not.
@Suite(.timeLimit(.minutes(1))) struct ChildProcessTests {
    @Test func itsExitStatusAndItsOutputComeBack() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"], standardOutput: .pipe,
            standardError: .pipe)
        let (outputEnd, errorEnd) = (try #require(child.output), try #require(child.errorOutput))
        async let output = ChildProcess.readToEnd(outputEnd)
        async let errors = ChildProcess.readToEnd(errorEnd)
        #expect(await String(decoding: output, as: UTF8.self) == "out\n")
        #expect(await String(decoding: errors, as: UTF8.self) == "err\n")
        #expect(await child.termination() == .exited(3))
        #expect(child.terminated == .exited(3))
    }

    /// The test process blocks SIGTERM on its threads; a child does not inherit that, so SIGTERM ends it.
    @Test func aSignalEndsItWhateverThisProcessBlocks() async throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["30"])
        #expect(child.terminated == nil)
        child.send(SIGTERM)
        #expect(await child.termination() == .signalled(SIGTERM))
        #expect(child.waitUntilExit() == .signalled(SIGTERM))
    }

    @Test func itHasOnlyTheThreeDescriptorsItWasGiven() async throws {
        // A descriptor of ours that is not close-on-exec: the child must not hold it all the same.
        let leaky = open("/dev/null", O_RDONLY)
        defer { close(leaky) }
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "ls /proc/$$/fd"], standardOutput: .pipe)
        let listed = String(decoding: await ChildProcess.readToEnd(try #require(child.output)), as: UTF8.self)
        #expect(listed.split(separator: "\n").sorted() == ["0", "1", "2"])
        #expect(await child.termination() == .exited(0))
    }

    /// The lifeline of the benchmark's children: standard input ends when the parent closes its end.
    @Test func closingItsInputEndsWhatItReads() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "cat > /dev/null; echo read all"], standardInput: .pipe,
            standardOutput: .pipe)
        let input = try #require(child.input)
        input.write(Data("hello\n".utf8))
        try input.close()
        #expect(
            String(decoding: await ChildProcess.readToEnd(try #require(child.output)), as: UTF8.self) == "read all\n")
        #expect(await child.termination() == .exited(0))
    }

    @Test func itsEnvironmentIsTheOneGiven() async throws {
        let child = try ChildProcess(
            executable: "/usr/bin/env", environment: ["HOME_TEST": "kitchen lamp"], standardOutput: .pipe)
        let printed = String(decoding: await ChildProcess.readToEnd(try #require(child.output)), as: UTF8.self)
        #expect(printed == "HOME_TEST=kitchen lamp\n")
        _ = await child.termination()
    }

    @Test func aMissingExecutableIsAClearError() {
        #expect(throws: ChildProcessError.cannotStart("/nonexistent/helper", reason: ENOENT)) {
            try ChildProcess(executable: "/nonexistent/helper")
        }
        #expect(
            ChildProcessError.cannotStart("/nonexistent/helper", reason: ENOENT).description
                == "cannot start /nonexistent/helper: No such file or directory")
    }
}
