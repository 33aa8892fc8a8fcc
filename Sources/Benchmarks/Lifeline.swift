import Foundation
import MatterPlatform

/// The benchmark's child processes (the farm, the fresh hubs) die with it, however it goes (a SIGKILL too): a child's
/// standard input is a pipe only the benchmark holds open, and the child exits at its end.
enum Lifeline {
    /// A child started: this binary again with `arguments`, its output on a pipe, and its lifeline its standard
    /// input, whose write end the returned process holds for as long as the parent keeps it.
    static func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(
            executable: URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path,
            arguments: arguments, standardInput: .pipe, standardOutput: .pipe, standardError: .inherit)
    }

    /// The child's side: exits once standard input ends (the benchmark is gone).
    static func exitWhenTheParentGoes() {
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) > 0 {}
            exit(0)
        }
    }
}
