import Foundation
import HomeRecords
import MatterPlatform
import MatterTestSupport
import Testing

@testable import HomeHub

@Suite struct ProcessIdentityTests {
    @Test("this process is found, with a start time, and is running")
    func currentProcess() throws {
        let current = try #require(ProcessIdentity.current())
        #expect(current.pid == getpid())
        #expect(current.isRunning)
    }

    @Test("the same PID with another start time (a recycled PID) is not the owner")
    func recycledPID() throws {
        let current = try #require(ProcessIdentity.current())
        #expect(!ProcessIdentity(pid: current.pid, startTicks: current.startTicks &+ 1).isRunning)
    }

    @Test("a process that exited is no longer running; a PID that cannot exist has no process")
    func exitedProcess() async throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["30"])
        let identity = try #require(ProcessIdentity.running(pid: child.pid))
        #expect(identity.isRunning)
        child.send(SIGKILL)
        _ = await child.termination()
        #expect(!identity.isRunning)
        #expect(ProcessIdentity.running(pid: 0) == nil)
        #expect(ProcessIdentity.running(pid: -1) == nil)
    }
}
