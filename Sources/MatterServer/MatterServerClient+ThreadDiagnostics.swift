import Foundation
import HomeEngine
import HomeHub
import HubWire
import Synchronization

/// Schema 12's `get_thread_diagnostics` and `thread_diagnostics_updated` (matterjs-server's ThreadDiagnosticsBatch).
/// The hub collects no Thread diagnostics: neither MeshCoP (a commissioner's DTLS session with a border agent) nor
/// OpenThread's border-router REST API is built. So every Thread network it knows — by the border routers last heard
/// and the datasets it holds — is answered as matterjs-server answers a network it has no transport for: a batch with
/// no nodes, `source` "none" and `partialReason` "no_source". The client is told there is no source, never shown an
/// empty mesh as if it were collected.
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
            let batches = await threadNetworkBatches()
            if let wanted {
                return send(Self.reply(id, (batches.first { $0.extendedPANID == wanted }?.json ?? .null).rendered))
            }
            // The cache now, then the refresh as events (matterjs-server's form without ext_pan_id).
            send(Self.reply(id, JSONValue.array(peers.threadDiagnostics.cached.map(\.json)).rendered))
            for batch in batches {
                peers.threadDiagnostics.store(batch)
                peers.broadcastThreadDiagnostics(Self.event("thread_diagnostics_updated", batch.json))
            }
        }
    }

    /// A batch for every Thread network the hub knows of: the border routers last heard, then its datasets.
    private func threadNetworkBatches() async -> [ThreadDiagnosticsBatch] {
        // Each network once, in the order first known, named by the first source that names it.
        var names: [String: String] = [:]
        var order: [String] = []
        func know(_ extendedPANID: String, _ name: String?) {
            if names[extendedPANID] == nil { order.append(extendedPANID) }
            if names[extendedPANID]?.isEmpty ?? true { names[extendedPANID] = name ?? "" }
        }
        for router in peers.topology.borderRouters {
            guard let pan = router.extendedPANID else { continue }
            know(MatterServerTopology.hex(pan), router.networkName)
        }
        if let held = try? await engine.perform(ReadNetworkCredentials(), caller: caller) {
            for entry in held.entries where entry.kind == .thread {
                know(entry.shownName.uppercased(), entry.networkName)
            }
        }
        let collectedAt = UInt64(Date().timeIntervalSince1970 * 1000)
        return order.map {
            ThreadDiagnosticsBatch(extendedPANID: $0, networkName: names[$0] ?? "", collectedAt: collectedAt)
        }
    }
}

/// One Thread network's diagnostics as schema 12 carries them; here always without a source (see above).
struct ThreadDiagnosticsBatch: Sendable, Hashable {
    let extendedPANID: String
    let networkName: String
    let collectedAt: UInt64

    var json: JSONValue {
        .object([
            ("extPanIdHex", .string(extendedPANID)), ("networkName", .string(networkName)),
            ("collectedAt", .unsigned(collectedAt)), ("source", .string("none")), ("nodes", .array([])),
            ("partialReason", .string("no_source")),
        ])
    }
}

/// The batches last sent, by network: what `get_thread_diagnostics` answers at once.
final class ThreadDiagnosticsCache: Sendable {
    private let batches = Mutex<[String: ThreadDiagnosticsBatch]>([:])

    var cached: [ThreadDiagnosticsBatch] {
        batches.withLock { $0.values.sorted { $0.extendedPANID < $1.extendedPANID } }
    }

    func store(_ batch: ThreadDiagnosticsBatch) {
        batches.withLock { $0[batch.extendedPANID] = batch }
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
