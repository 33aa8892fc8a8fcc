import Foundation
import HomeRecords
import MatterInteraction
import Synchronization

/// A model in another process than the hub's: the hub sends its snapshot once, then after each batch of changes
/// what the batch needs to be replayed (`MirroredChanges`); the mirror applies it and publishes the hub's own
/// changes, so a client's queries, device types and events behave as they do in the hub. A mirror never reads a
/// store.
extension HomeModel {
    /// One batch of the hub's changes with the data they name (`MirroredChanges`).
    public typealias MirroredChanges = HomeRecords.MirroredChanges

    /// A copy of the hub's model as it was at `snapshot`, `failure` saying why the hub's store could not be read
    /// then, if it could not.
    public convenience init(mirroring snapshot: Snapshot, failure: String? = nil) {
        var state = State(snapshot: snapshot)
        state.mirroredFailure = failure
        self.init(state: state)
    }

    /// Replays one batch the hub sent, then tells the listeners the hub's changes.
    public func applyMirrored(_ batch: MirroredChanges) {
        state.withLock { state in
            guard state.sourceLost == nil else { return }
            if let structures = batch.structures, let rooms = batch.rooms {
                _ = Self.apply(
                    structures: structures, rooms: rooms, groups: batch.groups ?? state.snapshot.groups,
                    to: &state.snapshot)
            }
            for (nodeID, devices) in batch.devices { _ = Self.apply(devices: devices, of: nodeID, to: &state.snapshot) }
            for (nodeID, node) in batch.interrupted {
                _ = Self.apply(interrupted: node, of: nodeID, to: &state.snapshot)
            }
            for (nodeID, connection) in batch.states {
                if let connection {
                    let cache = state.snapshot.views[nodeID]?.cache ?? AttributeCache()
                    state.snapshot.views[nodeID] = NodeView(cache: cache, state: connection)
                } else {
                    state.snapshot.views[nodeID] = nil
                    state.snapshot.recentEvents[nodeID] = nil
                }
            }
            for change in batch.changes {
                switch change {
                case .attributes(let nodeID, _, let values):
                    guard var view = state.snapshot.views[nodeID] else { continue }
                    for (path, value) in values { view.cache.set(path, to: value) }
                    state.snapshot.views[nodeID] = view
                case .unreadable(let failure):
                    state.mirroredFailure = failure
                case .event(let nodeID, let event):
                    var recent = state.snapshot.recentEvents[nodeID, default: []]
                    recent.append(event)
                    recent.removeFirst(max(0, recent.count - HubConstants.recentEventsPerNode))
                    state.snapshot.recentEvents[nodeID] = recent
                default:
                    break
                }
            }
            Self.publish(batch.changes, in: &state)
        }
    }

    /// The mirror's hub went away (`reason` says which and why): from now on `sourceLost` says so, and every
    /// listener is woken as if it had fallen behind, so that a live query reads again and fails.
    public func sourceWentAway(_ reason: String) {
        state.withLock { state in
            guard state.sourceLost == nil else { return }
            state.sourceLost = reason
            for (id, var listener) in state.listeners {
                listener.sequence += 2
                listener.continuation.yield(Delivery(sequence: listener.sequence, changes: []))
                state.listeners[id] = listener
            }
        }
    }

    /// Why the mirror's hub cannot read its store now; nil when it can (and always, for the hub's own model, whose
    /// `failure` says it).
    public var mirroredFailure: String? {
        state.withLock { $0.mirroredFailure }
    }

    /// Why this mirror no longer follows its hub; nil while it does (and always, for the hub's own model).
    public var sourceLost: String? {
        state.withLock { $0.sourceLost }
    }
}
