import Foundation
import HomeHub
import HomeRecords
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterTLV

/// The live connection's figures: how long a report takes from a device to a consumer of `NodeConnection.events()`,
/// and what the attribute cache of one device costs in memory.
func runLiveConnectionBenchmarks() async throws -> Report {
    var report = Report()
    let latencies = try await reportToConsumerLatencies(changes: 300)
    report.add(
        "Report to consumer, in-process loopback device (median of \(latencies.count))",
        milliseconds(latencies[latencies.count / 2]), key: "report_to_consumer_ms_p50",
        value: latencies[latencies.count / 2].microseconds / 1000)
    report.add(
        "Report to consumer (90th percentile)", milliseconds(latencies[latencies.count * 9 / 10]),
        key: "report_to_consumer_ms_p90", value: latencies[latencies.count * 9 / 10].microseconds / 1000)

    let nodes = 1000
    let priming = ReportDataMessage(subscriptionID: 1, attributeReports: lightAttributeReports()).encoded()
    let before = residentBytes()
    var caches: [AttributeCache] = []
    caches.reserveCapacity(nodes)
    for _ in 0..<nodes {
        // Each node's report decoded on its own, as from the network, so no two caches share storage.
        var cache = AttributeCache()
        cache.apply(try ReportDataMessage(payload: priming).attributeReports)
        caches.append(cache)
    }
    let perNode = Double(residentBytes() - before) / Double(nodes)
    let attributes = caches.first?.paths.count ?? 0
    let allocated = Double(caches.first?.allocatedBytes ?? 0)
    report.add(
        "Attribute cache of a dimmable light (\(attributes) attributes, \(priming.count)-byte priming; its buffers)",
        "\(Int(allocated)) bytes", key: "cache_bytes_per_dimmable_light", value: allocated)
    report.add(
        "  the same, as process RSS delta over \(nodes) nodes (freed memory reused earlier in the run hides it)",
        "\(format(perNode / 1024, decimals: 1)) KiB", key: "attribute_cache_rss_kib_per_device", value: perNode / 1024)
    withExtendedLifetime(caches) {}
    return report
}

/// Sends `changes` reports from a device on its own transport over ::1 and times each until the connection's event
/// for it reaches the consumer; sorted.
private func reportToConsumerLatencies(changes: Int) async throws -> [Duration] {
    let device = try MatterTransport()
    let controller = try MatterTransport()
    defer {
        Task {
            await device.shutdown(); await controller.shutdown()
        }
    }
    let (deviceSession, controllerSession) = try await fixedKeySessions(device: device, controller: controller)
    let onOff = AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0x0000)
    let publisher = Task {
        for await (exchange, message) in device.incomingExchanges
        where message.opcode == InteractionModelOpcode.subscribeRequest.rawValue {
            try await device.send(
                report(
                    ReportDataMessage(
                        subscriptionID: 1,
                        attributeReports: [
                            .data(AttributeDataIB(dataVersion: 1, path: onOff, data: TLVElement(.bool(false))))
                        ])), on: exchange)
            _ = try await device.receive(on: exchange, timeout: .seconds(5))
            try await device.send(
                ExchangeMessage(
                    protocolID: .interactionModel, opcode: InteractionModelOpcode.subscribeResponse.rawValue,
                    payload: SubscribeResponseMessage(subscriptionID: 1, maxInterval: 60).encoded()), on: exchange)
            await device.close(exchange)
        }
    }
    defer { publisher.cancel() }
    let connection = NodeConnection(nodeID: 1, transport: controller, router: InteractionRouter(transport: controller))
    {
        NodeSession(session: controllerSession, peerParameters: .default)
    }
    await connection.start()
    try await connection.connected()
    var events = await connection.events().makeAsyncIterator()
    _ = await events.next()  // the state
    _ = await events.next()  // the cached paths
    let clock = ContinuousClock()
    var latencies: [Duration] = []
    for change in 0..<changes {
        let exchange = try await device.openExchange(on: deviceSession)
        let message = report(
            ReportDataMessage(
                subscriptionID: 1,
                attributeReports: [
                    .data(
                        AttributeDataIB(
                            dataVersion: UInt32(change + 2), path: onOff,
                            data: TLVElement(.bool(change.isMultiple(of: 2)))))
                ]))
        let sent = clock.now
        try await device.send(message, on: exchange)
        while let event = await events.next() {
            if case .attributes = event { break }
        }
        latencies.append(clock.now - sent)
        _ = try await device.receive(on: exchange, timeout: .seconds(5))
        await device.close(exchange)
    }
    await connection.stop()
    return latencies.sorted()
}

private func report(_ message: ReportDataMessage) -> ExchangeMessage {
    ExchangeMessage(
        protocolID: .interactionModel, opcode: InteractionModelOpcode.reportData.rawValue, payload: message.encoded())
}

/// A secure session between the two transports with fixed keys, as CASE would leave it.
private func fixedKeySessions(
    device: MatterTransport, controller: MatterTransport
) async throws -> (SessionHandle, SessionHandle) {
    let controllerToDevice = [UInt8](repeating: 0x11, count: 16)
    let deviceToController = [UInt8](repeating: 0x22, count: 16)
    let deviceSession = try await device.addSecureSession(
        SecureSessionParameters(
            localSessionID: 2, peerSessionID: 1, encryptionKey: deviceToController, decryptionKey: controllerToDevice,
            localNonceNodeID: 0, peerNonceNodeID: 0),
        peer: .udp(.ipv6(IPv6Address(0, 1), port: try controller.localPorts().ipv6)))
    let controllerSession = try await controller.addSecureSession(
        SecureSessionParameters(
            localSessionID: 1, peerSessionID: 2, encryptionKey: controllerToDevice, decryptionKey: deviceToController,
            localNonceNodeID: 0, peerNonceNodeID: 0),
        peer: .udp(.ipv6(IPv6Address(0, 1), port: try device.localPorts().ipv6)))
    return (deviceSession, controllerSession)
}

/// The priming of a dimmable light as CircuitMatter's looks: root endpoint (Descriptor, Basic Information, General
/// Commissioning, Operational Credentials with one fabric's certificates, Access Control), an on/off light and a
/// dimmable light; every cluster with its global attributes.
private func lightAttributeReports() -> [AttributeReportIB] {
    let certificate = TLVValue.bytes([UInt8](repeating: 0x5A, count: 400))
    func list(_ values: [UInt64]) -> TLVValue { .array(values.map { TLVElement(.unsigned($0)) }) }
    func fields(_ values: [(UInt8, TLVValue)]) -> TLVValue {
        .structure(values.map { TLVElement(tag: .context($0.0), $0.1) })
    }
    let descriptor = { (deviceType: UInt64, servers: [UInt64], parts: [UInt64]) -> (UInt32, [(UInt32, TLVValue)]) in
        (
            0x001D,
            [
                (0, .array([TLVElement(fields([(0, .unsigned(deviceType)), (1, .unsigned(1))]))])), (1, list(servers)),
                (2, list([])), (3, list(parts)),
            ]
        )
    }
    let lightClusters = { (deviceType: UInt64, dimmable: Bool) -> [(UInt32, [(UInt32, TLVValue)])] in
        var clusters: [(UInt32, [(UInt32, TLVValue)])] = [
            descriptor(deviceType, dimmable ? [0x1D, 0x03, 0x04, 0x06, 0x08] : [0x1D, 0x03, 0x04, 0x06], []),
            (0x0003, [(0, .unsigned(0)), (1, .unsigned(0))]),
            (0x0004, [(0, .unsigned(0))]),
            (
                0x0006,
                [
                    (0, .bool(false)), (0x4000, .bool(true)), (0x4001, .unsigned(0)), (0x4002, .unsigned(0)),
                    (0x4003, .null),
                ]
            ),
        ]
        if dimmable {
            clusters.append(
                (
                    0x0008,
                    [
                        (0, .unsigned(127)), (1, .unsigned(0)), (2, .unsigned(1)), (3, .unsigned(254)),
                        (0x10, .unsigned(0)),
                        (0x11, .null), (0x0F, .unsigned(0)), (0x4000, .null),
                    ]
                ))
        }
        return clusters
    }
    let endpoints: [(UInt16, [(UInt32, [(UInt32, TLVValue)])])] = [
        (
            0,
            [
                descriptor(0x16, [0x1D, 0x28, 0x30, 0x3E, 0x1F, 0x33], [1, 2]),
                (
                    0x0028,
                    [
                        (0, .unsigned(17)), (1, .utf8("CircuitMatter")), (2, .unsigned(0xFFF4)),
                        (3, .utf8("CircuitMatter")),
                        (4, .unsigned(0x1234)), (5, .utf8("")), (6, .utf8("XX")), (7, .unsigned(1)), (8, .utf8("1.0")),
                        (9, .unsigned(1)),
                        (10, .utf8("1.0.0")), (11, .utf8("20240101")), (15, .utf8("1234")),
                        (18, .utf8("0123456789ABCDEF0123456789ABCDEF")),
                        (19, fields([(0, .unsigned(3)), (1, .unsigned(3))])), (21, .unsigned(0x0103_0400)),
                        (22, .unsigned(1)),
                    ]
                ),
                (
                    0x0030,
                    [
                        (0, .unsigned(0)), (1, fields([(0, .unsigned(60)), (1, .unsigned(900))])), (2, .unsigned(0)),
                        (3, .unsigned(2)),
                        (4, .bool(true)),
                    ]
                ),
                (
                    0x003E,
                    [
                        (0, .array([TLVElement(fields([(1, certificate), (2, certificate), (254, .unsigned(1))]))])),
                        (
                            1,
                            .array([
                                TLVElement(
                                    fields([
                                        (1, .bytes([UInt8](repeating: 4, count: 65))), (2, .unsigned(0xFFF1)),
                                        (3, .unsigned(1)), (4, .unsigned(0x8FC7_7724_01CD_0696)), (5, .utf8("")),
                                        (254, .unsigned(1)),
                                    ]))
                            ])
                        ),
                        (2, .unsigned(5)), (3, .unsigned(1)), (4, .array([TLVElement(certificate)])), (5, .unsigned(1)),
                    ]
                ),
                (
                    0x001F,
                    [
                        (
                            0,
                            .array([
                                TLVElement(
                                    fields([
                                        (1, .unsigned(5)), (2, .unsigned(2)), (3, list([0x0001_0000_0000_0001])),
                                        (4, .null), (254, .unsigned(1)),
                                    ]))
                            ])
                        ),
                        (2, .unsigned(4)), (3, .unsigned(3)), (4, .unsigned(4)),
                    ]
                ),
                (0x0033, [(0, .array([])), (1, .unsigned(3)), (2, .unsigned(3600)), (8, .bool(false))]),
            ]
        ),
        (1, lightClusters(0x0100, false)),
        (2, lightClusters(0x0101, true)),
    ]
    var reports: [AttributeReportIB] = []
    for (endpoint, clusters) in endpoints {
        for (cluster, attributes) in clusters {
            let ids = attributes.map { UInt64($0.0) }
            let globals: [(UInt32, TLVValue)] = [
                (0xFFF8, list([])), (0xFFF9, list([0, 1, 2])),
                (0xFFFB, list(ids + [0xFFF8, 0xFFF9, 0xFFFB, 0xFFFC, 0xFFFD])),
                (0xFFFC, .unsigned(1)), (0xFFFD, .unsigned(4)),
            ]
            for (attribute, value) in attributes + globals {
                reports.append(
                    .data(
                        AttributeDataIB(
                            dataVersion: 0x1000 + cluster,
                            path: AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute),
                            data: TLVElement(value))))
            }
        }
    }
    return reports
}
