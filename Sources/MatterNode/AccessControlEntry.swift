import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §9.10.4.5 AccessControlEntryStruct: one grant of one fabric's access control list.
public struct AccessControlEntry: Hashable, Sendable {
    // Matter Core §9.10.4.4 AccessControlTargetStruct: a cluster, an endpoint or a device type; nil matches any.
    public struct Target: Hashable, Sendable {
        public var cluster: UInt32?
        public var endpoint: UInt16?
        public var deviceType: UInt32?

        public init(cluster: UInt32? = nil, endpoint: UInt16? = nil, deviceType: UInt32? = nil) {
            self.cluster = cluster
            self.endpoint = endpoint
            self.deviceType = deviceType
        }
    }

    public var privilege: AccessPrivilege
    public var authMode: AccessContext.AuthMode
    /// Node IDs (or group IDs); empty grants every subject of the auth mode.
    public var subjects: [UInt64]
    /// Empty grants every cluster on every endpoint.
    public var targets: [Target]

    public init(
        privilege: AccessPrivilege, authMode: AccessContext.AuthMode, subjects: [UInt64], targets: [Target] = []
    ) {
        self.privilege = privilege
        self.authMode = authMode
        self.subjects = subjects
        self.targets = targets
    }

    /// Matter Core §6.6.6 Access Control Privilege Granting: this entry grants the request to this subject.
    /// `deviceTypes` names the device types of an endpoint, for targets that name one.
    func grants(_ request: AccessRequest, to context: AccessContext, deviceTypes: (UInt16) -> [UInt32]) -> Bool {
        guard authMode == context.authMode, privilege >= request.privilege else { return false }
        guard subjects.isEmpty || subjects.contains(context.subject) else { return false }
        guard !targets.isEmpty else { return true }
        return targets.contains { target in
            (target.cluster.map { $0 == request.cluster.cluster } ?? true)
                && (target.endpoint.map { $0 == request.cluster.endpoint } ?? true)
                && (target.deviceType.map { deviceTypes(request.cluster.endpoint).contains($0) } ?? true)
        }
    }

    /// The entry as the Acl attribute lists it.
    func tlvValue(fabricIndex: UInt8) -> TLVValue {
        AccessControlCluster.AccessControlEntryStruct(
            privilege: .init(rawValue: privilege.rawValue), authMode: .init(rawValue: authMode.rawValue),
            subjects: subjects.isEmpty ? .null : .value(subjects),
            targets: targets.isEmpty
                ? .null
                : .value(
                    targets.map {
                        AccessControlCluster.AccessControlTargetStruct(
                            cluster: Nullable($0.cluster.map(ClusterID.init(rawValue:))),
                            endpoint: Nullable($0.endpoint),
                            deviceType: Nullable($0.deviceType.map(DeviceTypeID.init(rawValue:))))
                    }),
            fabricIndex: fabricIndex
        ).tlvValue()
    }

    /// An entry a client wrote, checked against §9.10.5.3's constraints; nil when it breaks one.
    init?(written element: TLVElement) {
        guard let written = try? AccessControlCluster.AccessControlEntryStruct(tlv: element),
            let privilegeValue = written.privilege, let privilege = AccessPrivilege(rawValue: privilegeValue.rawValue),
            let modeValue = written.authMode, let authMode = AccessContext.AuthMode(rawValue: modeValue.rawValue),
            authMode != .pase
        else { return nil }
        let subjects: [UInt64] =
            switch written.subjects {
            case .value(let list)?: list
            case .null?, nil: []
            }
        var targets: [Target] = []
        if case .value(let list)? = written.targets {
            for target in list {
                let converted = Target(
                    cluster: target.cluster.optional?.rawValue, endpoint: target.endpoint.optional,
                    deviceType: target.deviceType.optional?.rawValue)
                // A target names something, and never an endpoint and a device type together.
                guard converted != Target(), converted.endpoint == nil || converted.deviceType == nil else {
                    return nil
                }
                targets.append(converted)
            }
        }
        guard subjects.count <= Int(NodeConstants.subjectsPerAccessControlEntry),
            targets.count <= Int(NodeConstants.targetsPerAccessControlEntry),
            // Group entries cannot grant Administer (§9.10.5.3).
            !(authMode == .group && privilege == .administer)
        else { return nil }
        self.init(privilege: privilege, authMode: authMode, subjects: subjects, targets: targets)
    }
}
