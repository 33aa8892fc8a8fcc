/// The steps `home demo` ran, one line each with its duration: "✓ added Kitchen light (light) in 84 ms". A step that
/// throws ends the demo: its line says what failed, and `failure` keeps the step's name and the error.
final class DemoTranscript: Sendable {
    /// What the demo was doing when it failed.
    struct Failure: Error, CustomStringConvertible {
        let step: String
        let reason: String
        var description: String { "\(step): \(reason)" }
    }

    private let output: @Sendable (String) -> Void
    private let clock = ContinuousClock()

    init(output: @escaping @Sendable (String) -> Void) {
        self.output = output
    }

    /// Runs `body`, bounded by `limit`, and prints "✓ <the line it returns> in N ms", or "✗ <step> failed after N ms".
    @discardableResult
    func step<Value: Sendable>(
        _ name: String, limit: Duration = CommandLineTiming.demoStep,
        _ body: @escaping @Sendable () async throws -> (Value, String)
    ) async throws(Failure) -> Value {
        let start = clock.now
        do {
            let (value, line) = try await Self.bounded(by: limit, name: name, body)
            output("✓ \(line) in \(Self.milliseconds(clock.now - start)) ms")
            return value
        } catch {
            output("✗ \(name) failed after \(Self.milliseconds(clock.now - start)) ms")
            throw (error as? Failure) ?? Failure(step: name, reason: "\(error)")
        }
    }

    /// Lines that belong to the step just printed (a table), indented.
    func detail(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        {
            output("    " + line)
        }
    }

    private static func bounded<Value: Sendable>(
        by limit: Duration, name: String,
        _ body: @escaping @Sendable () async throws -> (Value, String)
    ) async throws -> (Value, String) {
        try await withThrowingTaskGroup(of: (Value, String)?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let done = first else {
                throw Failure(step: name, reason: "no answer within \(limit)")
            }
            return done
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
