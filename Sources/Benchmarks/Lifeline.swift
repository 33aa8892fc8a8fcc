import Foundation

/// The benchmark's child processes (the farm, the fresh hubs) die with it, however it goes (a SIGKILL too): a child's
/// standard input is a pipe only the benchmark holds open, and the child exits at its end.
enum Lifeline {
    /// A child started: this binary again with `arguments`, its output on a pipe, and its lifeline (its standard
    /// input), which the parent keeps for as long as the child should live.
    static func start(_ arguments: [String]) throws -> (process: Process, output: Pipe, lifeline: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = arguments
        let (output, lifeline) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardInput = lifeline
        try process.run()
        return (process, output, lifeline)
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
