import Foundation
import HTTPClient
import MatterDiscovery
import MatterPlatform
import MatterTestSupport
import MatterTime
import OpenThreadREST
import Synchronization
import Testing

/// A Thread network's diagnostics from a border router's REST API: the whole collection over HTTP against a server
/// that answers as ot-br-posix's openapi text says, and the collection's steps alone on virtual instants (what goes
/// wrong, the deadline).
@Suite(.timeLimit(.minutes(1))) struct OpenThreadRESTCollectionTests {
    static let leader = TestBorderRouterREST.Device(
        extendedAddress: "96518e5497d5b9f3",
        diagnostic: """
            {"extAddress": "96518e5497d5b9f3", "rloc16": "0x5000",
             "mode": {"rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true},
             "connectivity": {"parentPriority": 0, "linkQuality3": 1, "linkQuality2": 0, "linkQuality1": 0,
               "leaderCost": 0, "idSequence": 42, "activeRouters": 1, "sedBufferSize": 1280, "sedDatagramCount": 1},
             "route": {"idSequence": 42,
               "routeData": [{"routeId": 20, "linkQualityOut": 0, "linkQualityIn": 0, "routeCost": 1}]},
             "leaderData": {"partitionId": 1794764107, "weighting": 64, "dataVersion": 64, "stableDataVersion": 230,
               "leaderRouterId": 20},
             "networkData": "08040b02",
             "ipv6Addresses": ["fdd2:399d:3564:aba6:36f1:b05d:d638:43b6", "fd11:22::aadb:cb2d:47b9:97bc"],
             "macCounters": {"ifInUnknownProtos": 0, "ifInErrors": 1, "ifOutErrors": 2, "ifInUcastPkts": 9,
               "ifInBroadcastPkts": 1167, "ifInDiscards": 0, "ifOutUcastPkts": 6, "ifOutBroadcastPkts": 926,
               "ifOutDiscards": 0},
             "childTable": [{"childId": 1, "timeout": 12, "linkQuality": 3,
               "mode": {"rxOnWhenIdle": false, "fullThreadDevice": false, "fullNetworkData": false}}],
             "batteryLevel": null, "supplyVoltage": 5000, "channelPages": [0], "maxChildTimeout": 2880,
             "eui": "9035eafffef02ca9", "threadVersion": 4, "vendorName": "VendorName",
             "threadStackVersion": "OPENTHREAD/1.4",
             "mleCounters": {"radioDisabledCount": 1, "detachedRoleCount": 1, "childRoleCount": 1,
               "routerRoleCount": 1, "leaderRoleCount": 1, "attachAttemptsCount": 1, "partIdChangesCount": 0,
               "betterPartIdAttachAttemptsCount": 0, "newParentCount": 1, "totalTrackingTime": 44000,
               "radioDisabledTime": 21, "detachedRoleTime": 174, "childRoleTime": 62, "routerRoleTime": 43742,
               "leaderRoleTime": 0}}
            """)
    static let sleepyChild = TestBorderRouterREST.Device(
        extendedAddress: "2a55d952bc7b4008",
        diagnostic: """
            {"extAddress": "2a55d952bc7b4008", "rloc16": "0x5001",
             "mode": {"rxOnWhenIdle": false, "fullThreadDevice": false, "fullNetworkData": false},
             "timeout": 240, "batteryLevel": 82, "eui": "not hex", "leaderData": {"partitionId": "many"}}
            """)
    static let silent = TestBorderRouterREST.Device(
        extendedAddress: "0011223344556677", answers: false, diagnostic: "{}")

    @Test func aNetworkIsCollectedOverHTTPAsTheAPIDefinesIt() async throws {
        let router = try TestBorderRouterREST(
            extendedPANID: "a7b7d5d07d9ec2fa", networkName: "OpenThread-1234",
            devices: [Self.leader, Self.sleepyChild, Self.silent])
        let report = await OpenThreadRESTCollector.collect(from: router.base, clock: SystemClock())

        #expect(report.extendedPANID == 0xA7B7_D5D0_7D9E_C2FA && report.networkName == "OpenThread-1234")
        #expect(report.nodes.map(\.extendedAddress) == [0x9651_8E54_97D5_B9F3, 0x2A55_D952_BC7B_4008])
        #expect(report.shortfall == .timeout, "the silent device's task stopped")
        #expect(report.problem == "devices that did not answer their task: 1")

        let leader = try #require(report.nodes.first)
        #expect(leader.rloc16 == 0x5000 && leader.mode?.fullThreadDevice == true)
        #expect(leader.connectivity?.idSequence == 42 && leader.connectivity?.sedBufferSize == 1280)
        #expect(leader.routes?.map(\.routerID) == [20] && leader.routes?.first?.routeCost == 1)
        #expect(leader.leaderData?.partitionID == 1_794_764_107 && leader.leaderData?.leaderRouterID == 20)
        #expect(leader.networkData == [0x08, 0x04, 0x0B, 0x02])
        #expect(
            leader.ipv6Addresses == [
                IPv6Address("fdd2:399d:3564:aba6:36f1:b05d:d638:43b6")!, IPv6Address("fd11:22::aadb:cb2d:47b9:97bc")!,
            ])
        #expect(leader.macCounters?.inBroadcast == 1167 && leader.macCounters?.outErrors == 2)
        #expect(leader.childTable?.first?.timeoutSeconds == 256 && leader.childTable?.first?.mode.rxOnWhenIdle == false)
        #expect(leader.batteryLevel == nil && leader.supplyVoltage == 5000 && leader.maxChildTimeout == 2880)
        #expect(leader.eui64 == 0x9035_EAFF_FEF0_2CA9 && leader.threadVersion == 4)
        #expect(leader.threadStackVersion == "OPENTHREAD/1.4" && leader.mleCounters?.routerTime == 43742)

        let child = report.nodes[1]
        #expect(child.mode?.rxOnWhenIdle == false && child.timeout == 240 && child.batteryLevel == 82)
        #expect(child.eui64 == nil && child.leaderData == nil, "malformed members are left out")

        // What was posted: the refresh with the devices known, then a task per device asking every TLV.
        let posted = try router.posted.map {
            try #require(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
        #expect(posted.count == 2)
        let refresh = try #require((posted.first?["data"] as? [[String: Any]])?.first)
        #expect(refresh["type"] as? String == "updateDeviceCollectionTask")
        #expect((refresh["attributes"] as? [String: Any])?["deviceCount"] as? Int == 3)
        let tasks = try #require(posted.last?["data"] as? [[String: Any]])
        let attributes = tasks.compactMap { $0["attributes"] as? [String: Any] }
        #expect(
            attributes.compactMap { $0["destination"] as? String } == [
                "96518e5497d5b9f3", "2a55d952bc7b4008", "0011223344556677",
            ])
        #expect((attributes.first?["types"] as? [String])?.contains("childTable") == true)
    }

    @Test func aBorderRouterWithoutTheAPIOrOutOfReachIsSaidSo() async throws {
        let plain = try TestHTTPServer(respond: { _ in TestHTTPServer.answer(404, Array("no".utf8)) })
        let absent = await OpenThreadRESTCollector.collect(from: plain.base, clock: SystemClock())
        #expect(absent.shortfall == .absent && absent.problem == "no REST API there (HTTP 404)")

        // A port nothing listens on: a listener closed at once.
        let closed = try TestHTTPServer(respond: { _ in nil })
        let port = closed.port
        _ = consume closed
        let unreachable = await OpenThreadRESTCollector.collect(from: "http://127.0.0.1:\(port)", clock: SystemClock())
        #expect(unreachable.shortfall == .unreachable && unreachable.nodes.isEmpty)
    }

    /// A border router that never answers cannot hold the collection past its deadline (on a manual clock).
    @Test func aSilentBorderRouterIsGivenUpOnAtTheDeadline() async {
        let clock = ManualClock()
        let silence = Silence()
        let collecting = Task {
            await OpenThreadRESTCollector.collect(from: "http://192.0.2.1:8081", clock: clock) { _, _ in
                await silence.wait()
                return .failure(HTTPClientError("http://192.0.2.1:8081", "never"))
            }
        }
        // Past the 45 s deadline, a second at a time.
        for _ in 0..<60 {
            try? await Task.sleep(for: .milliseconds(10))
            clock.advance(by: .seconds(1))
        }
        let report = await collecting.value
        #expect(report.shortfall == .timeout && report.problem == "the collection's deadline came")
        silence.end()
    }

    // MARK: The steps alone, on virtual instants

    static let wellKnown = Array(
        #"{"api":{"version":"0.5.0","base":"/api/"},"links":[{"href":"/api/actions","rel":"task"},{"href":"/api/devices","rel":"device"},{"href":"/api/diagnostics","rel":"diagnostic"}]}"#
            .utf8)
    static let devices = Array(
        #"{"data":[{"id":"96518e5497d5b9f3","type":"threadBorderRouter","attributes":{"extPanId":"a7b7d5d07d9ec2fa","networkName":"Home"}}]}"#
            .utf8)

    /// Drives a collection to its diagnostic tasks: probe, count, refresh refused as busy, list, post.
    func collectionAtItsTasks(_ start: Instant) -> OpenThreadRESTCollection {
        var collection = OpenThreadRESTCollection(startedAt: start)
        _ = collection.start()
        _ = collection.answered(status: 200, body: Self.wellKnown, at: start)
        _ = collection.answered(status: 200, body: Self.devices, at: start)
        let busy = collection.answered(status: 503, body: [], at: start)
        #expect(
            busy == .send(.init(method: .get, path: "/api/devices", body: [], accept: "application/vnd.api+json")),
            "a busy refresh is skipped")
        guard case .send(let post) = collection.answered(status: 200, body: Self.devices, at: start) else {
            Issue.record("no diagnostic task posted")
            return collection
        }
        #expect(post.method == .post && post.path == "/api/actions")
        return collection
    }

    @Test func theDeadlineEndsACollectionWithWhatItHas() {
        let start = Instant(nanoseconds: 1_000_000_000)
        var collection = collectionAtItsTasks(start)
        let posted = Array(
            #"{"data":[{"id":"a1","type":"getNetworkDiagnosticTask","attributes":{"status":"pending"}}]}"#.utf8)
        let poll = collection.answered(status: 200, body: posted, at: start)
        #expect(
            poll == .send(.init(method: .get, path: "/api/actions/a1", body: [], accept: "application/vnd.api+json")))
        let pending = Array(
            #"{"data":{"id":"a1","type":"getNetworkDiagnosticTask","attributes":{"status":"active"}}}"#.utf8)
        #expect(collection.answered(status: 200, body: pending, at: start) == .wait(until: start + .seconds(1)))
        // Round after round while the task stays active, until the deadline.
        var now = start + .seconds(1)
        var last: OpenThreadRESTCollection.Action?
        while now < start + .seconds(60) {
            guard let action = collection.timerFired(at: now) else { break }
            last = action
            if case .finish = action { break }
            last = collection.answered(status: 200, body: pending, at: now)
            if case .finish = last { break }
            now = now + .seconds(1)
        }
        guard case .finish(let report) = last else {
            Issue.record("never finished: \(String(describing: last))")
            return
        }
        #expect(report.shortfall == .timeout && report.extendedPANID == 0xA7B7_D5D0_7D9E_C2FA)
        #expect(now <= start + OpenThreadRESTLimits.collection, "not past the deadline")
    }

    @Test func answersNotAsTheAPIDefinesThemEndItAsAProtocolError() {
        let start = Instant(nanoseconds: 1_000_000_000)
        // Task IDs that would reach beyond the actions in a path are refused, not followed.
        var collection = collectionAtItsTasks(start)
        let sneaky = Array(
            #"{"data":[{"id":"../../node/dataset/active","type":"getNetworkDiagnosticTask","attributes":{"status":"pending"}}]}"#
                .utf8)
        guard case .finish(let report) = collection.answered(status: 200, body: sneaky, at: start) else {
            Issue.record("a path in an ID was followed")
            return
        }
        #expect(report.shortfall == .protocolError && report.networkName == "Home")

        // A well-known document whose links leave the server.
        var elsewhere = OpenThreadRESTCollection(startedAt: start)
        _ = elsewhere.start()
        let away = Array(
            #"{"api":{"version":"0.5.0","base":"/api/"},"links":[{"href":"//evil.example/a","rel":"task"},{"href":"/api/devices","rel":"device"},{"href":"/api/diagnostics","rel":"diagnostic"}]}"#
                .utf8)
        guard case .finish(let refused) = elsewhere.answered(status: 200, body: away, at: start) else {
            Issue.record("a link off the server was followed")
            return
        }
        #expect(refused.shortfall == .absent)

        // Devices that are not a JSON:API document.
        var garbled = OpenThreadRESTCollection(startedAt: start)
        _ = garbled.start()
        _ = garbled.answered(status: 200, body: Self.wellKnown, at: start)
        guard case .finish(let unreadable) = garbled.answered(status: 200, body: Array("[1,2".utf8), at: start) else {
            Issue.record("garbage was taken")
            return
        }
        #expect(unreadable.shortfall == .protocolError && unreadable.problem?.contains("the devices") == true)
    }
}

/// An answer held back until the test ends it.
private final class Silence: Sendable {
    private let waiters = Mutex<(ended: Bool, continuations: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let ended = waiters.withLock { state -> Bool in
                if !state.ended { state.continuations.append(continuation) }
                return state.ended
            }
            if ended { continuation.resume() }
        }
    }

    func end() {
        let continuations = waiters.withLock { state in
            state.ended = true
            defer { state.continuations = [] }
            return state.continuations
        }
        for continuation in continuations { continuation.resume() }
    }
}
