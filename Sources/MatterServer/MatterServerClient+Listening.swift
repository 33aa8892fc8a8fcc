import Foundation
import HTTPWebSocket
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterPlatform
import MatterTLV

// The Matter-server API's `start_listening`: the nodes, then the home model's changes as the protocol's events.
extension MatterServerClient {
    /// The nodes now as the reply, then every change as events. The listener is registered before the snapshot is
    /// read, so no change is missed; one that the snapshot already shows is sent again, which the client takes as
    /// the same state. The reply is queued before the listener can send anything: python-matter-server's client
    /// reads the first message after its request as the reply (§9.1), so an event before it would break the client.
    func startListening(_ id: String) {
        let changes = engine.model.changes(.all)
        let snapshot = engine.model.snapshot
        let known = Dictionary(uniqueKeysWithValues: snapshot.devices.keys.map { ($0, KnownNode($0, snapshot)) })
        let reply = Self.reply(id, JSONValue.array(MatterServerNodes.all(snapshot) + peers.testNodes.all).rendered)
        let begun = listening.withLock { listening -> Bool in
            guard listening == nil else { return false }
            // Under the lock that `forward` takes before it sends: no event can be queued ahead of the reply.
            send(reply)
            let task = Task { [weak self] in
                for await update in changes {
                    guard let self else { return }
                    self.forward(update)
                }
            }
            listening = Listening(known: known, task: task)
            return true
        }
        guard begun else {
            return send(Self.error(id, .unknown, "this client is already listening"))
        }
    }

    /// One batch of the model's changes as the protocol's events. A node whose endpoints changed is sent whole
    /// (node_updated) before endpoint_added, as python-matter-server does after it re-interviews a bridge, so the client
    /// has the new endpoint's attributes when it hears of it; attribute_updated is sent only for endpoints the client
    /// knows.
    func forward(_ update: HomeModel.Update) {
        let snapshot = engine.model.snapshot
        var events: [String] = []
        listening.withLock { listening in
            guard var state = listening else { return }
            var touched: Set<UInt64> = []
            switch update {
            case .fellBehind:
                // What was missed is unknown: every node again, whole.
                touched = Set(state.known.keys).union(snapshot.devices.keys)
            case .changes(let changes):
                for change in changes {
                    switch change {
                    case .attributes(let nodeID, _, let values):
                        guard let known = state.known[nodeID] else { break }
                        for (path, value) in values.sorted(by: {
                            MatterServerNodes.key($0.key) < MatterServerNodes.key($1.key)
                        }) where known.endpoints.contains(path.endpoint) {
                            let json = value.map { JSONValue($0, octetStrings: .base64) } ?? .null
                            events.append(
                                Self.event(
                                    "attribute_updated",
                                    .array([.unsigned(nodeID), .string(MatterServerNodes.key(path)), json])))
                        }
                        // Endpoints come and go with a Descriptor's PartsList (or a report from a new one).
                        let mayChangeEndpoints = values.keys.contains {
                            $0.cluster == DescriptorCluster.id.rawValue || !known.endpoints.contains($0.endpoint)
                        }
                        if mayChangeEndpoints && MatterServerNodes.endpoints(nodeID, snapshot) != known.endpoints {
                            touched.insert(nodeID)
                        }
                    case .event(let nodeID, let event) where state.known[nodeID] != nil:
                        events.append(Self.event("node_event", Self.nodeEvent(nodeID, event)))
                    case .event, .unreadable:
                        break
                    default:
                        if let nodeID = change.nodeID { touched.insert(nodeID) }
                    }
                }
            }
            for nodeID in touched.sorted() {
                guard let node = MatterServerNodes.node(nodeID, snapshot) else {
                    if state.known.removeValue(forKey: nodeID) != nil {
                        events.append(Self.event("node_removed", .unsigned(nodeID)))
                    }
                    continue
                }
                let now = KnownNode(nodeID, snapshot)
                guard let known = state.known[nodeID] else {
                    events.append(Self.event("node_added", node))
                    state.known[nodeID] = now
                    continue
                }
                let endpoint = { (endpoint: UInt16) in
                    JSONValue.object([("node_id", .unsigned(nodeID)), ("endpoint_id", .unsigned(UInt64(endpoint)))])
                }
                for removed in known.endpoints.subtracting(now.endpoints).sorted() {
                    events.append(Self.event("endpoint_removed", endpoint(removed)))
                }
                let added = now.endpoints.subtracting(known.endpoints).sorted()
                if known.available != now.available || !added.isEmpty || update.isFellBehind {
                    events.append(Self.event("node_updated", node))
                }
                for endpointID in added { events.append(Self.event("endpoint_added", endpoint(endpointID))) }
                state.known[nodeID] = now
            }
            listening = state
        }
        for event in events { send(event) }
    }

    /// A node's event as node_event's data: its fields by the data model's names.
    static func nodeEvent(_ nodeID: UInt64, _ event: NodeEvent) -> JSONValue {
        let names = ClusterRegistry.standard[event.cluster]?.eventFields[event.event] ?? [:]
        let fields = names.sorted { $0.key < $1.key }.map { FieldInfo($0.key, $0.value, .unsigned) }
        let timestamp: (UInt64, UInt64) =
            switch event.timestamp {
            case .epochMilliseconds(let value)?: (value, 1)
            case .systemMilliseconds(let value)?: (value, 0)
            case nil: (0, 0)
            }
        return .object([
            ("node_id", .unsigned(nodeID)), ("endpoint_id", .unsigned(UInt64(event.endpoint))),
            ("cluster_id", .unsigned(UInt64(event.cluster.rawValue))),
            ("event_id", .unsigned(UInt64(event.event.rawValue))), ("event_number", .unsigned(event.number)),
            ("priority", .unsigned(UInt64(event.priority.rawValue))), ("timestamp", .unsigned(timestamp.0)),
            ("timestamp_type", .unsigned(timestamp.1)),
            ("data", event.data.map { MatterServerPayload.decode($0, fields: fields) } ?? .null),
        ])
    }
}
