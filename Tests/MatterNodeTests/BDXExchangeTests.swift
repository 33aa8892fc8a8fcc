import MatterBDX
import MatterDiscovery
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

/// A transfer carried on an exchange between two transports over the simulated network, on virtual time: the
/// receiver drives (as an OTA requestor does), MRP carries what is lost, and silence ends it within BDX's idle time.
@Suite(.timeLimit(.minutes(1))) struct BDXExchangeTests {
    static let file = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
    static let designator = Array("FFF1-8001-2.ota".utf8)

    /// The serving side: the first exchange opened to `server` is served `file`.
    static func serve(_ file: [UInt8], on server: MatterTransport) -> Task<BDXExchange.End?, Never> {
        Task {
            for await (exchange, first) in server.incomingExchanges {
                let sender = BDXSender(file: file, designator: designator, now: server.clock.now)
                return await BDXExchange.serve(sender, first: first, on: exchange, over: server)
            }
            return nil
        }
    }

    static func address(of transport: MatterTransport) throws -> PeerAddress {
        .udp(.ipv4(IPv4Address(127 << 24 | 1), port: try transport.localPorts().ipv4))
    }

    @Test func aFileCrossesALossyNetworkWholeAndInOrder() async throws {
        let network = ClockedNetwork(
            clock: ManualClock(), seed: 5, conditions: .init(loss: 0.1, duplication: 0.05, delay: .milliseconds(1)))
        let (server, client) = (network.transport(), network.transport())
        let serving = Self.serve(Self.file, on: server)
        let session = await client.openUnsecuredSession(to: try Self.address(of: server))
        let received = Mutex<[UInt8]>([])
        let progress = Mutex<[UInt64]>([])
        let end = await drive(network.clock, step: .milliseconds(20)) {
            await BDXExchange.download(
                Self.designator, on: session, over: client, deliver: { bytes in received.withLock { $0 += bytes } },
                progress: { got, total in
                    #expect(total == UInt64(Self.file.count))
                    progress.withLock { $0.append(got) }
                })
        }
        #expect(end?.value == .finished, "\(network.statistics)")
        #expect(received.withLock { $0 } == Self.file)
        #expect(progress.withLock { $0 }.last == UInt64(Self.file.count))
        #expect(progress.withLock { $0 } == progress.withLock { $0 }.sorted(), "progress only goes forward")
        // The sender hears the last acknowledgement (MRP carries it too), on virtual time still.
        #expect(await drive(network.clock) { await serving.value }?.value == .finished)
        #expect(network.statistics.lost > 0, "the network lost nothing: the test proved nothing")
        await client.shutdown()
        await server.shutdown()
    }

    @Test func aDownloadResumesFromAnOffset() async throws {
        let network = ClockedNetwork(clock: ManualClock(), seed: 6)
        let (server, client) = (network.transport(), network.transport())
        let serving = Self.serve(Self.file, on: server)
        let session = await client.openUnsecuredSession(to: try Self.address(of: server))
        let received = Mutex<[UInt8]>([])
        let end = await drive(network.clock) {
            await BDXExchange.download(
                Self.designator, startOffset: 30_000, on: session, over: client,
                deliver: { bytes in received.withLock { $0 += bytes } })
        }
        #expect(end?.value == .finished)
        #expect(received.withLock { $0 } == Array(Self.file[30_000...]))
        #expect(await drive(network.clock) { await serving.value }?.value == .finished)
        await client.shutdown()
        await server.shutdown()
    }

    @Test func aSenderThatFallsSilentEndsTheDownloadWithinTheIdleTime() async throws {
        let network = ClockedNetwork(clock: ManualClock(), seed: 7)
        let (server, client) = (network.transport(), network.transport())
        // The server answers the ReceiveInit and the first query, then its process is gone.
        let answered = Task {
            for await (exchange, first) in server.incomingExchanges {
                var sender = BDXSender(file: Self.file, designator: Self.designator, now: server.clock.now)
                for action in sender.received(
                    try BDXMessage(opcode: first.opcode, payload: first.payload), now: server.clock.now)
                {
                    if case .send(let message) = action {
                        try await server.send(
                            ExchangeMessage(
                                protocolID: .bulkDataExchange, opcode: message.opcode.rawValue, payload: message.payload
                            ),
                            on: exchange)
                    }
                }
                return
            }
        }
        let session = await client.openUnsecuredSession(to: try Self.address(of: server))
        let started = network.clock.now
        let end = await drive(network.clock, step: .seconds(1), limit: .seconds(600)) { () -> BDXExchange.End in
            let end = await BDXExchange.download(Self.designator, on: session, over: client, deliver: { _ in })
            return end
        }
        try await answered.value
        guard case .failed(_, _, byPeer: false)? = end?.value else {
            Issue.record("expected the download to fail on its side: \(String(describing: end))")
            return
        }
        #expect(try #require(end?.at) - started <= BDXTiming.idle + .seconds(30))
        await client.shutdown()
        await server.shutdown()
    }
}
