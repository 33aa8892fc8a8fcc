import Foundation

/// The benchmark's child processes (the farm, the fresh hubs) die with it, however it goes (a SIGKILL too): a child's
/// standard input is a pipe only the benchmark holds open, and the child exits at its end.
enum Lifeline {
    /// The parent's side: give it as the child's standard input, and keep it for as long as the child should live.
    static func pipe(for process: Process) -> Pipe {
        let pipe = Pipe()
        process.standardInput = pipe
        return pipe
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
