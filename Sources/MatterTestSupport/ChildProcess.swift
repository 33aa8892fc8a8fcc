import Foundation

/// Child processes in async tests, waited for on a thread outside Swift concurrency's pool (blocking the pool's few
/// threads would stall every other test running meanwhile).
public enum ChildProcess {
    /// Waits for the process to exit and returns what it wrote on the pipe.
    public static func finish(_ process: Process, reading pipe: Pipe? = nil) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = pipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }
        }
    }
}
