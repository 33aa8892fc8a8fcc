import Foundation
import HomeEngine
import HomeHub
import HubWire
import MatterDiscovery
import MatterPlatform
import OpenThreadREST
import Synchronization

/// Schema 12's `get_thread_diagnostics` and `thread_diagnostics_updated` (matterjs-server's ThreadDiagnosticsBatch):
/// each Thread network the hub knows — by the border routers last heard, the datasets it holds, and the border
/// routers' REST APIs — with its devices' diagnostics collected through OpenThread's border-router REST API
/// (`OpenThreadREST`: an API named by `home serve --thread-rest`, or a border router heard by DNS-SD asked at port
/// 8081), source "otbr-rest". A network no REST API answers for is said to have none (source "none", partialReason
/// "no_source"), never shown as an empty mesh. MeshCoP (a commissioner's DTLS session with the border agent, whose
/// EC-JPAKE suite OpenSSL lacks) is not built.
extension MatterServerClient {
    func threadDiagnostics(_ id: String, _ args: ThreadDiagnosticsArguments) {
        let wanted = args.extPanID?.uppercased()
        if let wanted, wanted.count != 16 || !wanted.allSatisfy(\.isHexDigit) {
            return send(
                Self.error(id, .invalidArguments, "ext_pan_id is 16 hexadecimal digits, got \"\(args.extPanID ?? "")\"")
            )
        }
        hearsThreadDiagnostics.withLock { $0 = true }
        work { [self] in
            let force = args.force == true
            if let wanted {
                let batches = await threadNetworkBatches(force: force)
                return send(Self.reply(id, (batches.first { $0.extendedPANID == wanted }?.json ?? .null).rendered))
            }
            // The cache now, then the refresh as events (matterjs-server's form without ext_pan_id).
            send(Self.reply(id, JSONValue.array(peers.threadDiagnostics.cached.map(\.json)).rendered))
            for batch in await threadNetworkBatches(force: force) {
                peers.broadcastThreadDiagnostics(Self.event("thread_diagnostics_updated", batch.json))
            }
        }
    }

    /// A batch for every Thread network the hub knows of.
    private func threadNetworkBatches(force: Bool) async -> [ThreadDiagnosticsBatch] {
        var networks: [(extendedPANID: String, name: String?)] = []
        for router in peers.topology.borderRouters {
            guard let pan = router.extendedPANID else { continue }
            networks.append((MatterServerTopology.hex(pan), router.networkName))
        }
        if let held = try? await engine.perform(ReadNetworkCredentials(), caller: caller) {
            for entry in held.entries where entry.kind == .thread {
                networks.append((entry.shownName.uppercased(), entry.networkName))
            }
        }
        return await peers.threadDiagnostics.collect(
            networks: networks, borderRouters: peers.topology.borderRouters, force: force)
    }
}

/// One Thread network's diagnostics as schema 12 carries them (ThreadDiagnosticsBatch).
struct ThreadDiagnosticsBatch: Sendable, Hashable {
    let extendedPANID: String
    let networkName: String
    let collectedAt: UInt64
    /// "otbr-rest", or "none" when no source answers for the network.
    let source: String
    let nodes: [ThreadNodeDiagnostics]
    /// Absent when the batch is complete.
    let partialReason: String?

    var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("extPanIdHex", .string(extendedPANID)), ("networkName", .string(networkName)),
            ("collectedAt", .unsigned(collectedAt)), ("source", .string(source)),
            ("nodes", .array(nodes.map(Self.node))),
        ]
        if let partialReason { fields.append(("partialReason", .string(partialReason))) }
        return .object(fields)
    }

    /// matterjs-server's ThreadDiagnosticsNode: each member only when the device answered it.
    static func node(_ node: ThreadNodeDiagnostics) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        func add(_ name: String, _ value: JSONValue?) { if let value { fields.append((name, value)) } }
        func int(_ value: Int?) -> JSONValue? { value.map { .signed(Int64($0)) } }
        func hex(_ bytes: [UInt8]) -> JSONValue { .string(MatterServerTopology.hex(bytes)) }
        func mode(_ mode: ThreadNodeDiagnostics.Mode) -> JSONValue {
            .object([
                ("rxOnWhenIdle", .bool(mode.rxOnWhenIdle)), ("ftd", .bool(mode.fullThreadDevice)),
                ("fullNetworkData", .bool(mode.fullNetworkData)),
            ])
        }
        add("extMacAddress", node.extendedAddress.map { .string(MatterServerTopology.hex($0)) })
        add("rloc16", node.rloc16.map { .unsigned(UInt64($0)) })
        add("mode", node.mode.map(mode))
        add("timeout", int(node.timeout))
        add(
            "connectivity",
            node.connectivity.map { link in
                .object([
                    ("parentPriority", .signed(Int64(link.parentPriority))),
                    ("linkQuality3", .signed(Int64(link.linkQuality3))),
                    ("linkQuality2", .signed(Int64(link.linkQuality2))),
                    ("linkQuality1", .signed(Int64(link.linkQuality1))),
                    ("leaderCost", .signed(Int64(link.leaderCost))),
                    ("idSequence", .signed(Int64(link.idSequence))),
                    ("activeRouters", .signed(Int64(link.activeRouters))),
                    ("sedBufferSize", .signed(Int64(link.sedBufferSize ?? 0))),
                    ("sedDatagramCount", .signed(Int64(link.sedDatagramCount ?? 0))),
                ])
            })
        if let routes = node.routes {
            add(
                "route64",
                .object([
                    ("idSequence", .signed(Int64(node.routeIDSequence ?? 0))),
                    (
                        "entries",
                        .array(
                            routes.map {
                                .object([
                                    ("routerId", .signed(Int64($0.routerID))),
                                    ("linkQualityIn", .signed(Int64($0.linkQualityIn))),
                                    ("linkQualityOut", .signed(Int64($0.linkQualityOut))),
                                    ("routeCost", .signed(Int64($0.routeCost))),
                                ])
                            })
                    ),
                ]))
        }
        add(
            "leaderData",
            node.leaderData.map {
                .object([
                    ("partitionId", .unsigned(UInt64($0.partitionID))), ("weighting", .signed(Int64($0.weighting))),
                    ("dataVersion", .signed(Int64($0.dataVersion))),
                    ("stableDataVersion", .signed(Int64($0.stableDataVersion))),
                    ("leaderRouterId", .signed(Int64($0.leaderRouterID))),
                ])
            })
        add("networkData", node.networkData.map(hex))
        add("ipv6Addresses", node.ipv6Addresses.map { .array($0.map { hex($0.bytes) }) })
        add(
            "macCounters",
            node.macCounters.map {
                .object(
                    [
                        ("ifInUnknownProtos", $0.inUnknownProtocols), ("ifInErrors", $0.inErrors),
                        ("ifOutErrors", $0.outErrors), ("ifInUcastPkts", $0.inUnicast),
                        ("ifInBroadcastPkts", $0.inBroadcast), ("ifInDiscards", $0.inDiscards),
                        ("ifOutUcastPkts", $0.outUnicast), ("ifOutBroadcastPkts", $0.outBroadcast),
                        ("ifOutDiscards", $0.outDiscards),
                    ].map { ($0.0, JSONValue.unsigned(UInt64($0.1))) })
            })
        add(
            "childTable",
            node.childTable.map {
                .array(
                    $0.map {
                        .object([
                            ("timeoutExponent", .signed(Int64($0.timeoutExponent))),
                            ("timeoutSeconds", .unsigned($0.timeoutSeconds)),
                            ("incomingLinkQuality", .signed(Int64($0.linkQuality))),
                            ("childId", .signed(Int64($0.childID))), ("mode", mode($0.mode)),
                        ])
                    })
            })
        add("channelPages", node.channelPages.map { .array($0.map { .signed(Int64($0)) }) })
        add("maxChildTimeout", int(node.maxChildTimeout))
        add("eui64", node.eui64.map { .string(MatterServerTopology.hex($0)) })
        add("version", int(node.threadVersion))
        add("vendorName", node.vendorName.map(JSONValue.string))
        add("vendorModel", node.vendorModel.map(JSONValue.string))
        add("vendorSwVersion", node.vendorSoftwareVersion.map(JSONValue.string))
        add("threadStackVersion", node.threadStackVersion.map(JSONValue.string))
        add(
            "mleCounters",
            node.mleCounters.map {
                .object(
                    [
                        ("disabledRole", .signed(Int64($0.disabledRole))),
                        ("detachedRole", .signed(Int64($0.detachedRole))),
                        ("childRole", .signed(Int64($0.childRole))), ("routerRole", .signed(Int64($0.routerRole))),
                        ("leaderRole", .signed(Int64($0.leaderRole))),
                        ("attachAttempts", .signed(Int64($0.attachAttempts))),
                        ("partitionIdChanges", .signed(Int64($0.partitionIDChanges))),
                        ("betterPartitionAttachAttempts", .signed(Int64($0.betterPartitionAttachAttempts))),
                        ("parentChanges", .signed(Int64($0.parentChanges))),
                    ]
                        + [
                            ("trackedTime", $0.trackedTime), ("disabledTime", $0.disabledTime),
                            ("detachedTime", $0.detachedTime), ("childTime", $0.childTime),
                            ("routerTime", $0.routerTime), ("leaderTime", $0.leaderTime),
                        ].map { ($0.0, JSONValue.unsigned($0.1)) })
            })
        add("batteryLevel", int(node.batteryLevel))
        add("supplyVoltage", int(node.supplyVoltage))
        return .object(fields)
    }
}

/// Where the hub's Thread diagnostics come from, and the batches last collected: each border router's REST API is
/// asked at most once an hour (matterjs-server's cache time: a mesh's tables move slowly, and every collection is a
/// diagnostic query per device over the radio) unless a client forces it.
final class ThreadDiagnosticsSources: Sendable {
    /// How long a complete collection is reused, in seconds.
    static let reuseSeconds: TimeInterval = 3600

    private struct Collected: Sendable {
        let report: ThreadNetworkDiagnostics
        let at: Date
    }

    /// The REST APIs named by the hub's owner (`home serve --thread-rest`).
    let named: [String]
    private struct Collections {
        var reports: [String: Collected] = [:]
        var underWay: [String: Task<ThreadNetworkDiagnostics, Never>] = [:]
    }

    private let collected = Mutex(Collections())
    private let batches = Mutex<[String: ThreadDiagnosticsBatch]>([:])

    init(named: [String]) {
        self.named = named
    }

    /// The batches last collected: what `get_thread_diagnostics` without a network answers at once.
    var cached: [ThreadDiagnosticsBatch] {
        batches.withLock { $0.values.sorted { $0.extendedPANID < $1.extendedPANID } }
    }

    /// A batch for each network known (by its border routers, its dataset) or answered for by a REST API: collected
    /// from each API (the named ones, and each border router heard, at its first address on port 8081) at once,
    /// or from the last hour's collection unless `force`.
    func collect(
        networks: [(extendedPANID: String, name: String?)], borderRouters: [ThreadBorderRouter], force: Bool
    ) async -> [ThreadDiagnosticsBatch] {
        // Each API once, with the network its border router advertised when it was heard by DNS-SD.
        var apis: [(url: String, extendedPANID: String?)] = named.map { ($0, nil) }
        for router in borderRouters {
            guard let url = Self.restURL(router), !apis.contains(where: { $0.url == url }) else { continue }
            apis.append((url, router.extendedPANID.map(MatterServerTopology.hex)))
        }
        let reports = await withTaskGroup(of: (String?, ThreadNetworkDiagnostics).self) { group in
            for api in apis {
                group.addTask { [self] in
                    let report = await report(from: api.url, force: force)
                    return (report.extendedPANID.map(MatterServerTopology.hex) ?? api.extendedPANID, report)
                }
            }
            var reports: [String: ThreadNetworkDiagnostics] = [:]
            for await (network, report) in group {
                // A border router with no API is no source; of two that answer for one network, the fuller.
                guard let network, report.shortfall != .absent else { continue }
                if let other = reports[network], other.nodes.count >= report.nodes.count { continue }
                reports[network] = report
            }
            return reports
        }
        var order: [String] = []
        var names: [String: String] = [:]
        func know(_ network: String, _ name: String?) {
            if !order.contains(network) { order.append(network) }
            if names[network]?.isEmpty ?? true { names[network] = name ?? "" }
        }
        for network in networks { know(network.extendedPANID, network.name) }
        for (network, report) in reports.sorted(by: { $0.key < $1.key }) { know(network, report.networkName) }
        let collectedAt = UInt64(Date().timeIntervalSince1970 * 1000)
        let made = order.map { network in
            let report = reports[network]
            return ThreadDiagnosticsBatch(
                extendedPANID: network, networkName: names[network] ?? "", collectedAt: collectedAt,
                source: report == nil ? "none" : "otbr-rest", nodes: report?.nodes ?? [],
                partialReason: report.map { $0.shortfall?.rawValue } ?? "no_source")
        }
        batches.withLock { batches in
            for batch in made { batches[batch.extendedPANID] = batch }
        }
        return made
    }

    /// One API's report: the last hour's complete one (or its word that it serves no API) unless `force`; a
    /// collection already under way for it is joined, not started twice (the border router works its tasks one at a
    /// time, and a second set would only queue behind the first).
    private func report(from url: String, force: Bool) async -> ThreadNetworkDiagnostics {
        enum Source {
            case kept(ThreadNetworkDiagnostics)
            case collecting(Task<ThreadNetworkDiagnostics, Never>, started: Bool)
        }
        let source = collected.withLock { collected -> Source in
            if let underWay = collected.underWay[url] { return .collecting(underWay, started: false) }
            if !force, let last = collected.reports[url], Date().timeIntervalSince(last.at) < Self.reuseSeconds {
                return .kept(last.report)
            }
            let task = Task { await OpenThreadRESTCollector.collect(from: url, clock: SystemClock()) }
            collected.underWay[url] = task
            return .collecting(task, started: true)
        }
        let task: Task<ThreadNetworkDiagnostics, Never>
        let started: Bool
        switch source {
        case .kept(let report): return report
        case .collecting(let underWay, let mine): (task, started) = (underWay, mine)
        }
        let report = await task.value
        if started {
            collected.withLock { collected in
                collected.underWay[url] = nil
                // Only what will stay true is kept: a complete report, or that the router serves no API. A
                // collection cut short (unreachable, a timeout) is asked again next time.
                if report.shortfall == nil || report.shortfall == .absent {
                    collected.reports[url] = Collected(report: report, at: Date())
                }
            }
        }
        return report
    }

    /// A border router's REST API where ot-br-posix serves it by default: its first IPv4 address, else its first
    /// IPv6 address that needs no interface to be reached (a link-local one does).
    static func restURL(_ router: ThreadBorderRouter) -> String? {
        if let address = router.ipv4Addresses.first {
            return "http://\(address):\(OpenThreadRESTLimits.port)"
        }
        if let address = router.ipv6Addresses.first(where: { $0.bytes[0] != 0xFE || $0.bytes[1] & 0xC0 != 0x80 }) {
            return "http://[\(address)]:\(OpenThreadRESTLimits.port)"
        }
        return nil
    }
}

struct ThreadDiagnosticsArguments: Decodable, Sendable {
    let extPanID: String?
    let force: Bool?

    private enum CodingKeys: String, CodingKey {
        case extPanID = "ext_pan_id"
        case force
    }
}
