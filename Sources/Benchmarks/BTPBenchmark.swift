import MatterBTP
import MatterTime

/// BTP's own cost, no radio: a connected central and peripheral (segment size 244, window 6) joined with every GATT
/// operation delivered and confirmed at once, `messages` messages of `size` bytes from the central to the
/// peripheral, segmented, acknowledged and reassembled. Returns the bytes delivered.
func pushThroughBTP(messages: Int, size: Int) throws -> Int {
    let now = Instant(nanoseconds: 1)
    let (central, request) = BTPSession.central(attMTU: 247, now: now)
    guard case .send(let requestBytes)? = request.first else { return 0 }
    var sides = [central, try BTPSession.peripheral(request: requestBytes, maximumSegmentSize: 244, now: now).0]
    _ = sides[0].received(BTPHandshake.Response(version: 4, segmentSize: 244, window: 6).encoded, now: now)
    _ = sides[1].packetConfirmed(now: now)
    var delivered = 0
    // Each side's packets go to the other, which then confirms them: (to whom, packet), in order.
    var inFlight: [(Int, [UInt8])] = []
    func take(_ actions: [BTPSession.Action], from side: Int) {
        for action in actions {
            switch action {
            case .send(let packet): inFlight.append((1 - side, packet))
            case .deliver(let message): delivered += message.count
            case .close: inFlight.removeAll()
            }
        }
    }
    let message = [UInt8](repeating: 0x5A, count: size)
    for _ in 0..<messages { take(try sides[0].send(message, now: now), from: 0) }
    var next = 0
    while next < inFlight.count {
        let (receiver, packet) = inFlight[next]
        next += 1
        take(sides[receiver].received(packet, now: now), from: receiver)
        take(sides[1 - receiver].packetConfirmed(now: now), from: 1 - receiver)
    }
    return delivered
}

/// The BTP engine's throughput, CPU only.
func runBTPBenchmark() throws -> Report {
    var report = Report()
    let size = 1232
    let messages = 200
    guard try pushThroughBTP(messages: messages, size: size) == messages * size else {
        throw BTPBenchmarkFailure()
    }
    let measured = try Measurement.run("BTP engine", iterations: 5) {
        _ = try pushThroughBTP(messages: messages, size: size)
    }
    let megabytes = Double(messages * size) / 1_000_000
    report.add(
        "BTP engine, \(size)-byte messages, segment 244 (CPU only, no radio)",
        "\(format(megabytes / measured.perIteration.seconds)) MB/s", key: "btp_engine_mb_per_s",
        value: megabytes / measured.perIteration.seconds)
    return report
}

struct BTPBenchmarkFailure: Error, CustomStringConvertible {
    var description: String { "BTP delivered less than was sent" }
}
