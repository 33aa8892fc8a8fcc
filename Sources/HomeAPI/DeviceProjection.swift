import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import Synchronization

/// The home's devices as the API shows them, built once from the home model and then kept up to date from its
/// changes: a change to one node rebuilds that node's devices only, and a change to attribute values alone rebuilds
/// nothing (a device's value does not hold them). Both shapes are kept: one device per application endpoint, and one
/// per node (multipart). Reading a projection is a dictionary lookup or a copy of a set.
///
/// Its state is only touched while the model's lock is held (`withSnapshot`, `observe`), so a projection is never
/// built from one snapshot and updated from an older one.
final class DeviceProjection: Sendable {
    struct Devices: Sendable {
        var all: Set<HomeDevice> = []
        var byID: [String: HomeDevice] = [:]
        var idsOfNode: [UInt64: [String]] = [:]
    }

    private struct State {
        var endpoints: Devices?
        var nodes: Devices?
        /// Once the home is let go of, nothing is kept: a kept device would keep the home alive.
        var closed = false
    }

    private let state = Mutex(State())

    /// Every device, from the projection (built on first use).
    func devices(multipart: Bool, in context: HomeContext) -> Devices {
        context.model.withSnapshot { snapshot in
            state.withLock { state in
                if let built = multipart ? state.nodes : state.endpoints { return built }
                var devices = Devices()
                for (nodeID, records) in snapshot.devices {
                    Self.replace(nodeID, with: records, in: &devices, snapshot: snapshot, multipart: multipart, context)
                }
                if !state.closed {
                    if multipart { state.nodes = devices } else { state.endpoints = devices }
                }
                return devices
            }
        }
    }

    /// The model changed (called under its lock): rebuild the devices of the nodes the changes touch.
    func apply(_ changes: [HomeModel.Change], snapshot: HomeModel.Snapshot, context: HomeContext) {
        let nodes = Set(changes.lazy.filter { !$0.isReport }.compactMap(\.nodeID))
        guard !nodes.isEmpty else { return }
        state.withLock { state in
            for nodeID in nodes {
                let records = snapshot.devices[nodeID] ?? []
                if state.endpoints != nil {
                    Self.replace(
                        nodeID, with: records, in: &state.endpoints!, snapshot: snapshot, multipart: false, context)
                }
                if state.nodes != nil {
                    Self.replace(nodeID, with: records, in: &state.nodes!, snapshot: snapshot, multipart: true, context)
                }
            }
        }
    }

    func close() {
        state.withLock { $0 = State(endpoints: nil, nodes: nil, closed: true) }
    }

    private static func replace(
        _ nodeID: UInt64, with records: [DeviceRecord], in devices: inout Devices, snapshot: HomeModel.Snapshot,
        multipart: Bool, _ context: HomeContext
    ) {
        for id in devices.idsOfNode.removeValue(forKey: nodeID) ?? [] {
            if let old = devices.byID.removeValue(forKey: id) { devices.all.remove(old) }
        }
        let built = context.devices(of: nodeID, records: records, snapshot: snapshot, multipart: multipart)
        guard !built.isEmpty else { return }
        devices.idsOfNode[nodeID] = built.map(\.id)
        for device in built {
            devices.byID[device.id] = device
            devices.all.insert(device)
        }
    }
}
