import MatterDataModel

/// Which commands and attribute writes take a right beyond controlling a device, whichever door sends them, the
/// generic invoke and write included, so a caller refused `OpenCommissioningWindow`, `RemoveFabric` or
/// `ManageCheckIns` cannot send the same command by hand.
///
/// `administer`: what changes who controls a node or hands out the home's network secrets. The data model's own
/// access (Matter Core §6.6.2.1: a command or attribute whose privilege is Administer), and besides it every command
/// and write of the clusters that manage a node's fabrics, ACL, commissioning, group keys and networks, whatever
/// privilege each names (`ThreadNetworkDirectory`'s GetOperationalDataset, which answers a network key, takes only
/// Manage; `CommissionerControl` asks a bridge to bring nodes onto a fabric); and a command or attribute a standard
/// cluster does not name (what the data model does not describe is not assumed harmless). A vendor's cluster, which
/// the standard registry does not hold, takes its own ACL's word: Operate here.
/// `devices`: a node's check-in clients (ICD Management's RegisterClient, UnregisterClient), as `ManageCheckIns`.
enum AdministrativePaths {
    static let clusters: Set<ClusterID> = [
        OperationalCredentialsCluster.id, AccessControlCluster.id, AdministratorCommissioningCluster.id,
        GroupKeyManagementCluster.id, GeneralCommissioningCluster.id, NetworkCommissioningCluster.id,
        WiFiNetworkManagementCluster.id, ThreadNetworkDirectoryCluster.id, ThreadBorderRouterManagementCluster.id,
        JointFabricAdministratorCluster.id, JointFabricDatastoreCluster.id, CommissionerControlCluster.id,
    ]

    static let checkInCommands: Set<CommandID> = [
        IcdManagementCluster.Commands.RegisterClient.id, IcdManagementCluster.Commands.UnregisterClient.id,
    ]

    /// The rights invoking `command` of `cluster` takes beyond controlling the device: none, devices or administer.
    static func invoking(cluster: ClusterID, command: CommandID) -> HubRights {
        if clusters.contains(cluster) { return .administer }
        if cluster == IcdManagementCluster.id, checkInCommands.contains(command) { return .devices }
        guard let info = ClusterRegistry.standard[cluster] else { return [] }
        guard info.acceptedCommands[command] != nil else { return .administer }
        return info.invokePrivilege(command) == .administer ? .administer : []
    }

    /// The rights writing `attribute` of `cluster` takes beyond setting the device: none or administer.
    static func writing(cluster: ClusterID, attribute: AttributeID) -> HubRights {
        if clusters.contains(cluster) { return .administer }
        guard let info = ClusterRegistry.standard[cluster] else { return [] }
        guard let writable = info.writableAttributes[attribute] else { return .administer }
        return writable.privilege == .administer ? .administer : []
    }
}
