import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterPlatform
import MatterTLV
import MatterTestSupport
import MatterTime
import Testing

@testable import HomeHub
@testable import MatterNode

@Suite(.timeLimit(.minutes(1))) struct InteractionClientSubscriptionsTests {
    private static let vendorName = AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 1)
    private static let nodeLabel = AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 5)
    private static let request = SubscribeRequestMessage(
        minIntervalFloor: 0, maxIntervalCeiling: 1,
        attributeRequests: [AttributePathIB(endpoint: 0, cluster: 0x0028)])

    /// Answers a SubscribeRequest with a priming report of VendorName and SubscribeResponse(id, max interval).
    private static func primingPublisher(
        id: UInt32, maxInterval: UInt16,
        acknowledgements: Received<InteractionModelStatus>
    ) -> @Sendable (DeviceExchange) async throws -> Void {
        { exchange in
            _ = try SubscribeRequestMessage(payload: exchange.first?.payload ?? [])
            try await exchange.send(
                ReportDataMessage(
                    subscriptionID: id,
                    attributeReports: [
                        .data(
                            AttributeDataIB(
                                dataVersion: 1, path: vendorName, data: TLVElement(.utf8("CircuitMatter"))))
                    ]))
            await acknowledgements.append(try await exchange.receiveStatus())
            try await exchange.send(SubscribeResponseMessage(subscriptionID: id, maxInterval: maxInterval))
            await exchange.close()
        }
    }

    private static func report(_ id: UInt32, label: String?) -> ReportDataMessage {
        ReportDataMessage(
            subscriptionID: id,
            attributeReports: label.map {
                [
                    .data(
                        AttributeDataIB(
                            dataVersion: 2, path: nodeLabel, data: TLVElement(.utf8($0))))
                ]
            } ?? [])
    }

    @Test func primingThenReportsOnExchangesTheDeviceOpensEachAnswered() async throws {
        let acknowledgements = Received<InteractionModelStatus>()
        // On the real clock: a max interval long enough that a loaded machine never makes the subscription lost
        // between these reports (its liveness is the virtual-time tests' below).
        let device = try await LoopbackInteractionDevice(
            respond: Self.primingPublisher(id: 0x77, maxInterval: 30, acknowledgements: acknowledgements))
        let (subscription, updates) = try await device.client.subscribeWithReports(Self.request)
        #expect(subscription.subscriptionID == 0x77)
        #expect(subscription.maxInterval == .seconds(30))
        var cache = AttributeCache()
        cache.apply(subscription.priming.attributeReports)
        #expect(try cache.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0) == "CircuitMatter")

        for message in [
            Self.report(0x77, label: "Kitchen"), Self.report(0x77, label: nil), Self.report(0x99, label: "Other"),
        ] {
            let exchange = try await device.openExchange()
            try await exchange.send(message)
            await acknowledgements.append(try await exchange.receiveStatus())
            await exchange.close()
        }
        var reports = updates.makeAsyncIterator()
        let first = try #require(try await reports.next())
        cache.apply(first.attributeReports)
        #expect(try cache.value(BasicInformationCluster.Attributes.nodeLabel, endpoint: 0) == "Kitchen")
        #expect(try await reports.next()?.isEmpty == true)

        await subscription.cancel()
        let late = try await device.openExchange()
        try await late.send(Self.report(0x77, label: "Late"))
        await acknowledgements.append(try await late.receiveStatus())
        // Priming chunk, two reports, a report of a subscription never made, one after cancelling.
        #expect(
            await acknowledgements.values == [.success, .success, .success, .invalidSubscription, .invalidSubscription])
        await device.stop()
    }

    /// On virtual time: the loss comes exactly a liveness deadline after the last report, not a moment before.
    /// A device may report as soon as it has sent its SubscribeResponse: that report is the subscription's (not
    /// refused as one of an unknown subscription), even when it arrives before `subscribe` has returned.
    @Test(arguments: 0..<20) func aReportRightAfterTheSubscribeResponseIsTheSubscriptions(round: Int) async throws {
        let acknowledgements = Received<InteractionModelStatus>()
        let publish = Self.primingPublisher(id: 0x78, maxInterval: 2, acknowledgements: acknowledgements)
        let device = try await LoopbackInteractionDevice { exchange in
            // On the loop, as a virtual device runs: the SubscribeResponse and the report leave in one go.
            try await withTaskExecutorPreference(EventLoopExecutor.preferred) {
                try await publish(exchange)
                let transport = exchange.transport
                let report = DeviceExchange(
                    transport: transport, exchange: try await transport.openExchange(on: exchange.exchange.session),
                    first: nil)
                try await report.send(Self.report(0x78, label: "Hall \(round)"))
                await acknowledgements.append(try await report.receiveStatus())
                await report.close()
            }
        }
        let (subscription, updates) = try await device.client.subscribeWithReports(Self.request)
        var reports = updates.makeAsyncIterator()
        var cache = AttributeCache()
        cache.apply(try #require(try await reports.next()).attributeReports)
        #expect(try cache.value(BasicInformationCluster.Attributes.nodeLabel, endpoint: 0) == "Hall \(round)")
        // The device records the answer to its report once it has it, which may be just after the report is ours.
        while await acknowledgements.values.count < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await acknowledgements.values == [.success, .success])
        await subscription.cancel()
        await device.stop()
    }

    @Test func aSubscriptionIsLostWhenTheDeviceFallsSilentAndNotBefore() async throws {
        let network = ClockedNetwork(clock: ManualClock(), seed: 5)
        let clock = network.clock
        let acknowledgements = Received<InteractionModelStatus>()
        let device = try await LoopbackInteractionDevice(
            network: network, respond: Self.primingPublisher(id: 5, maxInterval: 1, acknowledgements: acknowledgements))
        let subscribed = await drive(clock) { try? await device.client.subscribeWithReports(Self.request) }
        let updates = try #require(subscribed?.value?.reports)
        // Max interval 1 s plus the retransmissions of a device with 50 ms MRP intervals: lost after about 1.7 s.
        let deadline = Duration.seconds(1) + (await device.client.retransmissionAllowance)
        #expect(deadline > .milliseconds(1600) && deadline < .milliseconds(1800))
        let reports = Task { () -> (empty: Int, error: String?) in
            var empty = 0
            do {
                for try await report in updates where report.isEmpty { empty += 1 }
                return (empty, nil)
            } catch {
                return (empty, "\(error)")
            }
        }

        clock.advance(by: .milliseconds(800))
        let keepAliveSent = clock.now
        let acknowledged = await drive(clock) { () -> InteractionModelStatus? in
            guard let exchange = try? await device.openExchange() else { return nil }
            defer { Task { await exchange.close() } }
            try? await exchange.send(Self.report(5, label: nil))
            return try? await exchange.receiveStatus()
        }
        #expect(acknowledged?.value == .success)

        let lost = try #require(await drive(clock) { await reports.value })
        #expect(lost.value.empty == 1, "the keep-alive reached the consumer as an empty report")
        #expect(
            lost.value.error?.hasPrefix(
                "subscribe to endpoint 0, cluster 0x0028, attribute *: subscription lost: no report for 1.7") == true)
        // The keep-alive moved the deadline: the loss came a whole deadline after it, within one step.
        let silence = lost.at - keepAliveSent
        #expect(silence > deadline && silence <= deadline + .milliseconds(20), "lost after \(silence)")
        await device.stop()
    }

    @Test func aRefusedSubscriptionNamesTheStatus() async throws {
        let device = try await LoopbackInteractionDevice { exchange in
            try await exchange.send(StatusResponseMessage(status: .resourceExhausted))
            await exchange.close()
        }
        await #expect {
            _ = try await device.client.subscribe(Self.request)
        } throws: { error in
            (error as? InteractionClientError)?.status == .resourceExhausted
                && "\(error)".hasPrefix("subscribe to endpoint 0, cluster 0x0028, attribute *: RESOURCE_EXHAUSTED")
        }
        await device.stop()
    }
}
