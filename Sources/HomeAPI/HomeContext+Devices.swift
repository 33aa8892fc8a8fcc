import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// The home's devices as the API shows them: one per endpoint device of the model, or one per node.
extension HomeContext {
    func devices(multipart: Bool) -> Set<HomeDevice> {
        projection.devices(multipart: multipart, in: self).all
    }

    /// The device, or nothing when the home no longer has it.
    func device(_ id: String, multipart: Bool) -> Set<HomeDevice> {
        projection.devices(multipart: multipart, in: self).byID[id].map { [$0] } ?? []
    }

    /// A node's devices as they are now, built from its records.
    func devices(
        of nodeID: UInt64, records: [DeviceRecord], snapshot: HomeModel.Snapshot, multipart: Bool
    ) -> [HomeDevice] {
        guard let first = records.first, let defaultStructureID = snapshot.defaultStructureID else { return [] }
        let connectivity = snapshot.views[nodeID]?.connectivity ?? .unknown
        let structureID = { (roomID: String?) in snapshot.structureID(ofRoom: roomID) ?? defaultStructureID }
        if multipart {
            let node = first.node
            return [
                device(
                    id: HubEngine.nodeDeviceID(nodeID), name: node.name ?? node.productName ?? first.name,
                    roomID: first.roomID, structureID: structureID(first.roomID), nodeID: nodeID, parts: records,
                    connectivity: connectivity, multipart: true)
            ]
        }
        return records.map { record in
            device(
                id: record.id.description, name: record.name, roomID: record.roomID,
                structureID: structureID(record.roomID), nodeID: nodeID, parts: [record], connectivity: connectivity,
                multipart: false)
        }
    }

    private func device(
        id: String, name: String, roomID: String?, structureID: String, nodeID: UInt64, parts: [DeviceRecord],
        connectivity: SourceConnectivity, multipart: Bool
    ) -> HomeDevice {
        let follow = Query<HomeDevice>(model: model, scope: .node(nodeID)) { [weak self] () throws(HomeError) in
            guard let self else { return [] }
            try requireCurrentModel()
            return device(id, multipart: multipart)
        }
        let own = parts.flatMap(\.deviceTypes)
        let root = parts.contains { $0.id.endpoint == 0 } ? [] : parts.first?.rootDeviceTypes ?? []
        let tags = Dictionary(grouping: parts.flatMap(\.semanticTags), by: \.endpoint).mapValues {
            $0.map(SemanticTag.init)
        }
        let types = DeviceTypeController(
            endpointTypes: own, rootEndpointTypes: root, endpointTags: tags, nodeID: nodeID,
            connectivity: connectivity, context: self, device: follow)
        return HomeDevice(
            id: id, name: name, roomID: roomID, structureID: structureID, isMatterDevice: true,
            sourceConnectivity: own.isEmpty && root.isEmpty ? .unknown : connectivity, types: types,
            parts: parts.map(\.id), nodeID: nodeID,
            isMultipart: multipart, context: self)
    }
}
