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

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    var microseconds: Double { seconds * 1e6 }
}

/// Prints figures in aligned columns.
struct Report {
    private var rows: [(String, String)] = []

    mutating func add(_ name: String, _ figure: String) {
        rows.append((name, figure))
    }

    func print() {
        let width = rows.map(\.0.count).max() ?? 0
        for (name, figure) in rows {
            Swift.print(name + String(repeating: " ", count: width - name.count + 2) + figure)
        }
    }
}

func format(_ value: Double, decimals: Int = 1) -> String {
    let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
    let rounded = (value * scale).rounded() / scale
    return String(rounded)
}
