import Foundation

/// Times a block over repeated runs and reports the median, so one slow run (a page fault, the other
/// core busy) does not move the figure.
struct Measurement {
    let name: String
    let median: Duration
    let iterationsPerRun: Int

    var perIteration: Duration { median / iterationsPerRun }

    static func run(_ name: String, iterations: Int, runs: Int = 7, _ body: () throws -> Void) rethrows -> Measurement {
        let clock = ContinuousClock()
        try body()  // warm-up: caches, lazy OpenSSL initialisation
        var samples: [Duration] = []
        for _ in 0..<runs {
            let start = clock.now
            for _ in 0..<iterations { try body() }
            samples.append(clock.now - start)
        }
        samples.sort()
        return Measurement(name: name, median: samples[samples.count / 2], iterationsPerRun: iterations)
    }
}

/// The CPU time this process has used so far, on every thread.
func processCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// A duration as a table shows it.
func milliseconds(_ duration: Duration, decimals: Int = 3) -> String {
    "\(format(duration.microseconds / 1000, decimals: decimals)) ms"
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    var microseconds: Double { seconds * 1e6 }
}

/// Figures for people, in aligned columns, each with a stable key and a plain number for `--json`, so runs can
/// be compared by a program.
struct Report {
    private var rows: [(name: String, figure: String, key: String, value: Double)] = []

    mutating func add(_ name: String, _ figure: String, key: String, value: Double) {
        rows.append((name, figure, key, value))
    }

    var figures: [(key: String, value: Double)] { rows.map { ($0.key, $0.value) } }

    func print() {
        let width = rows.map(\.name.count).max() ?? 0
        for row in rows {
            Swift.print(row.name + String(repeating: " ", count: width - row.name.count + 2) + row.figure)
        }
    }
}

func format(_ value: Double, decimals: Int = 1) -> String {
    let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
    let rounded = (value * scale).rounded() / scale
    return String(rounded)
}
