import MatterDataModel

/// Which commands and attribute writes change who controls a node, or hand out the home's network secrets: those
/// need the administer right (`HubRights.administer`) whichever door sends them, the generic invoke and write
/// included, so a caller refused `OpenCommissioningWindow` or `RemoveFabric` cannot send the same command by hand.
///
/// The rule is the data model's own access (Matter Core §6.6.2.1: a command or attribute whose privilege is
/// Administer), and besides it every command and write of the clusters that manage a node's fabrics, ACL,
/// commissioning, group keys and networks, whatever privilege each one names (`ThreadNetworkDirectory`'s
/// GetOperationalDataset, which answers a network key, takes only Manage).
enum AdministrativePaths {
    static let clusters: Set<ClusterID> = [
        OperationalCredentialsCluster.id, AccessControlCluster.id, AdministratorCommissioningCluster.id,
        GroupKeyManagementCluster.id, GeneralCommissioningCluster.id, NetworkCommissioningCluster.id,
        WiFiNetworkManagementCluster.id, ThreadNetworkDirectoryCluster.id, ThreadBorderRouterManagementCluster.id,
        JointFabricAdministratorCluster.id, JointFabricDatastoreCluster.id,
    ]

    /// Whether invoking `command` of `cluster` takes the administer right.
    static func invoking(cluster: ClusterID, command: CommandID) -> Bool {
        if clusters.contains(cluster) { return true }
        return ClusterRegistry.standard[cluster]?.invokePrivilege(command) == .administer
    }

    /// Whether writing `attribute` of `cluster` takes the administer right.
    static func writing(cluster: ClusterID, attribute: AttributeID) -> Bool {
        if clusters.contains(cluster) { return true }
        return ClusterRegistry.standard[cluster]?.writableAttributes[attribute]?.privilege == .administer
    }
}
