import HomeHub

/// The home's devices as the API shows them: one per endpoint device of the store, or one per node.
extension HomeContext {
    func devices(multipart: Bool, only id: String? = nil) throws(HomeError) -> Set<HomeDevice> {
        let (records, rooms, defaultStructureID) = try consistentRead { store throws(HubStoreError) in
            (try store.devices(), try store.rooms(), try Self.defaultStructureID(store.structures()))
        }
        let structureOfRoom = Dictionary(uniqueKeysWithValues: rooms.map { ($0.id, $0.structureID) })
        let structureID = { (roomID: String?) in roomID.flatMap { structureOfRoom[$0] } ?? defaultStructureID }
        var devices = Set<HomeDevice>()
        if multipart {
            var nodes: [UInt64: [DeviceRecord]] = [:]
            for record in records { nodes[record.node.nodeID, default: []].append(record) }
            for (nodeID, parts) in nodes {
                guard let first = parts.first, id == nil || id == Self.nodeDeviceID(nodeID) else { continue }
                let node = first.node
                devices.insert(
                    device(
                        id: Self.nodeDeviceID(nodeID), name: node.name ?? node.productName ?? first.name,
                        roomID: first.roomID,
                        structureID: structureID(first.roomID), nodeID: nodeID, parts: parts, multipart: true))
            }
        } else {
            for record in records where id == nil || id == record.id.description {
                devices.insert(
                    device(
                        id: record.id.description, name: record.name, roomID: record.roomID,
                        structureID: structureID(record.roomID), nodeID: record.id.nodeID, parts: [record],
                        multipart: false))
            }
        }
        return devices
    }

    private func device(
        id: String, name: String, roomID: String?, structureID: String, nodeID: UInt64, parts: [DeviceRecord],
        multipart: Bool
    ) -> HomeDevice {
        let follow = query { context throws(HomeError) in try context.devices(multipart: multipart, only: id) }
        let own = parts.flatMap(\.deviceTypes)
        let root = parts.contains { $0.id.endpoint == 0 } ? [] : parts.first?.rootDeviceTypes ?? []
        let tags = Dictionary(grouping: parts.flatMap(\.semanticTags), by: \.endpoint).mapValues {
            $0.map(SemanticTag.init)
        }
        let types = DeviceTypeController(
            endpointTypes: own, rootEndpointTypes: root, endpointTags: tags, nodeID: nodeID,
            view: live.view(of: nodeID),
            live: live, device: follow)
        return HomeDevice(
            id: id, name: name, roomID: roomID, structureID: structureID, isMatterDevice: true,
            sourceConnectivity: SourceConnectivity.aggregate(types.all.map(\.metadata.sourceConnectivity)),
            types: types, parts: parts.map(\.id), nodeID: nodeID, isMultipart: multipart, context: self)
    }

    static func nodeDeviceID(_ nodeID: UInt64) -> String {
        let hex = String(nodeID, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
