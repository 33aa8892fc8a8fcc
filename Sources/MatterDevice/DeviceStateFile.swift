import Foundation
import MatterCrypto
import MatterInteraction
import MatterNode

/// The device's persistent state as one JSON document: factory data (passcode verifier, attestation chain and keys),
/// the fabrics it joined with their ACLs, and the cluster values that survive a restart. Keys are inside, so the file
/// is written with mode 0600.
public struct DeviceStateFile: Codable, Hashable, Sendable {
    /// Bumped when the layout changes incompatibly.
    public static let formatVersion = 1

    public struct StoredFabric: Codable, Hashable, Sendable {
        var index: UInt8
        var rootCertificate: Data
        var noc: Data
        var icac: Data?
        var ipkEpochKey: Data
        var operationalKey: Data
        var vendorID: UInt16
        var label: String
        var accessControl: [StoredEntry]
        /// Its groups and group key sets; nil when it has none (and in files written before groups).
        var groups: FabricGroups?
    }

    public struct StoredEntry: Codable, Hashable, Sendable {
        var privilege: UInt8
        var authMode: UInt8
        var subjects: [UInt64]
        var targets: [StoredTarget]
    }

    public struct StoredTarget: Codable, Hashable, Sendable {
        var cluster: UInt32?
        var endpoint: UInt16?
        var deviceType: UInt32?
    }

    public var format: Int
    public var kind: String
    public var passcode: UInt32
    public var discriminator: UInt16
    public var iterations: UInt32
    public var salt: Data
    /// w0 ‖ L (§3.10): what PASE needs, the passcode itself being kept only to print the onboarding codes.
    public var verifier: Data
    public var identity: NodeIdentity
    public var paa: Data
    public var pai: Data
    public var dac: Data
    public var dacKey: Data
    public var certificationDeclaration: Data
    public var fabrics: [StoredFabric]
    /// TLV of each cluster's `persistentState`, keyed "endpoint/cluster".
    public var clusters: [String: Data]
    public var rebootCount: UInt16
    /// The bridged devices a bridge added and the endpoint IDs it retired while running; nil when it never changed
    /// (and in files written before bridges could change).
    public var bridge: BridgeChanges?
    /// Where the group message counter resumes (`GroupMessageCounter`); nil until the device first sent one.
    public var groupMessageCounter: UInt32?

    var attestation: DevelopmentAttestation {
        DevelopmentAttestation(
            paa: Array(paa), pai: Array(pai), dac: Array(dac), dacKey: Array(dacKey),
            certificationDeclaration: Array(certificationDeclaration))
    }

    func restoredFabrics() throws(DeviceError) -> [Fabric] {
        var restored: [Fabric] = []
        for stored in fabrics {
            var entries: [AccessControlEntry] = []
            for entry in stored.accessControl {
                guard let privilege = AccessPrivilege(rawValue: entry.privilege),
                    let mode = AccessContext.AuthMode(rawValue: entry.authMode)
                else {
                    throw .invalidCredentials(
                        "fabric \(stored.index) has an ACL entry with privilege \(entry.privilege), auth mode \(entry.authMode)"
                    )
                }
                entries.append(
                    AccessControlEntry(
                        privilege: privilege, authMode: mode, subjects: entry.subjects,
                        targets: entry.targets.map {
                            AccessControlEntry.Target(
                                cluster: $0.cluster, endpoint: $0.endpoint, deviceType: $0.deviceType)
                        }))
            }
            restored.append(
                try asDeviceError { () throws(NodeError) in
                    try Fabric(
                        index: stored.index, rootCertificate: Array(stored.rootCertificate), noc: Array(stored.noc),
                        icac: stored.icac.map(Array.init), ipkEpochKey: Array(stored.ipkEpochKey),
                        operationalKey: Array(stored.operationalKey), vendorID: stored.vendorID, label: stored.label,
                        accessControl: entries, groups: stored.groups ?? FabricGroups())
                })
        }
        return restored
    }

    static func stored(_ fabrics: [Fabric]) -> [StoredFabric] {
        fabrics.map { fabric in
            StoredFabric(
                index: fabric.index, rootCertificate: Data(fabric.rootCertificate), noc: Data(fabric.noc),
                icac: fabric.icac.map { Data($0) },
                ipkEpochKey: Data(fabric.ipkEpochKey), operationalKey: Data(fabric.operationalKey),
                vendorID: fabric.vendorID,
                label: fabric.label,
                accessControl: fabric.accessControl.map { entry in
                    StoredEntry(
                        privilege: entry.privilege.rawValue, authMode: entry.authMode.rawValue,
                        subjects: entry.subjects,
                        targets: entry.targets.map {
                            StoredTarget(cluster: $0.cluster, endpoint: $0.endpoint, deviceType: $0.deviceType)
                        })
                },
                groups: fabric.groups == FabricGroups() ? nil : fabric.groups)
        }
    }
}
