import MatterCrypto
import MatterSecureChannel

// Matter Core §11.2 Group Key Management (key sets, GroupKeyMap, GroupTable) and Application Clusters §1.3 Groups:
// what one fabric's administrator set up for group messaging on this node. It lives in the fabric's entry, so it is
// persisted with it, rolled back with it by an expiring fail-safe and gone when the fabric is removed.
public struct FabricGroups: Hashable, Sendable, Codable {
    /// §11.2.5.3 GroupKeyMapStruct: a group's messages use this key set.
    public struct KeyMapping: Hashable, Sendable, Codable {
        public var groupID: UInt16
        public var keySetID: UInt16

        public init(groupID: UInt16, keySetID: UInt16) {
            self.groupID = groupID
            self.keySetID = keySetID
        }
    }

    /// §11.2.5.2 GroupInfoMapStruct: a group this node's endpoints are members of.
    public struct Group: Hashable, Sendable, Codable {
        public var id: UInt16
        public var name: String
        /// Ascending, never empty: a group whose last endpoint leaves is removed.
        public var endpoints: [UInt16]

        public init(id: UInt16, name: String, endpoints: [UInt16]) {
            self.id = id
            self.name = name
            self.endpoints = endpoints
        }
    }

    /// The key sets the administrator wrote (KeySetWrite), by ID; the IPK (key set 0) is the fabric's own.
    public var keySets: [GroupKeySet] = []
    /// In the order written.
    public var keyMap: [KeyMapping] = []
    /// By group ID.
    public var groups: [Group] = []

    public init(keySets: [GroupKeySet] = [], keyMap: [KeyMapping] = [], groups: [Group] = []) {
        self.keySets = keySets
        self.keyMap = keyMap
        self.groups = groups
    }

    public func keySet(_ id: UInt16) -> GroupKeySet? {
        keySets.first { $0.id == id }
    }

    /// The endpoints of this node in `groupID`; empty when none is.
    public func endpoints(in groupID: UInt16) -> [UInt16] {
        groups.first { $0.id == groupID }?.endpoints ?? []
    }

    /// Whether a key set this node holds is mapped to `groupID`: a group without one can carry no message.
    public func hasKey(for groupID: UInt16) -> Bool {
        keyMap.contains { $0.groupID == groupID && keySet($0.keySetID) != nil }
    }

    /// The operational keys that may open a message carrying `sessionID` (§4.16.? reception: every epoch key of every
    /// key set a group is mapped to whose hash is that session ID), each with the groups mapped to its key set: a
    /// message opened with it must be for one of them.
    public func receivingKeys(
        sessionID: UInt16, compressedFabricID: [UInt8]
    ) -> [(key: [UInt8], groups: Set<UInt16>)] {
        var groupsOfKeySet: [UInt16: Set<UInt16>] = [:]
        for mapping in keyMap { groupsOfKeySet[mapping.keySetID, default: []].insert(mapping.groupID) }
        return keySets.filter { groupsOfKeySet[$0.id] != nil }.flatMap { set in
            set.epochKeys.compactMap { epoch -> (key: [UInt8], groups: Set<UInt16>)? in
                guard
                    let key = try? GroupKeys.operationalKey(
                        epochKey: epoch.key, compressedFabricID: compressedFabricID),
                    (try? GroupKeys.sessionID(operationalKey: key)) == sessionID
                else { return nil }
                return (key, groupsOfKeySet[set.id] ?? [])
            }
        }
    }

    /// The operational key and session ID a message to `groupID` is sent with: the current key of the first key set
    /// mapped to it (§4.17.3), as connectedhomeip picks; nil when none is.
    public func sendingKey(
        groupID: UInt16, compressedFabricID: [UInt8], now: UInt64?
    ) throws(CryptoError) -> (key: [UInt8], sessionID: UInt16)? {
        guard let set = keyMap.lazy.filter({ $0.groupID == groupID }).compactMap({ keySet($0.keySetID) }).first else {
            return nil
        }
        let key = try GroupKeys.operationalKey(
            epochKey: set.currentKey(at: now).key, compressedFabricID: compressedFabricID)
        return (key, try GroupKeys.sessionID(operationalKey: key))
    }

    /// Adds `endpoint` to `groupID` (creating the group, or renaming it when it exists).
    public mutating func add(_ endpoint: UInt16, to groupID: UInt16, name: String) {
        if let position = groups.firstIndex(where: { $0.id == groupID }) {
            groups[position].name = name
            if !groups[position].endpoints.contains(endpoint) {
                groups[position].endpoints = (groups[position].endpoints + [endpoint]).sorted()
            }
        } else {
            groups.append(Group(id: groupID, name: name, endpoints: [endpoint]))
            groups.sort { $0.id < $1.id }
        }
    }

    /// Takes `endpoint` out of `groupID`; false when it was not in it. A group left with no endpoint goes.
    @discardableResult
    public mutating func remove(_ endpoint: UInt16, from groupID: UInt16) -> Bool {
        guard let position = groups.firstIndex(where: { $0.id == groupID }),
            groups[position].endpoints.contains(endpoint)
        else { return false }
        groups[position].endpoints.removeAll { $0 == endpoint }
        if groups[position].endpoints.isEmpty { groups.remove(at: position) }
        return true
    }
}
