import MatterTLV

// Matter Core §7 Data Model, §9.10 Access Control: the boundary between the Interaction Model engine
// (`InteractionServer`) and a device's clusters. The engine owns its provider (`InteractionServer.provider`) and
// calls the mutating requirements from the device's one serial executor, so a provider is a plain value type
// with no locking; the device changes it through the server and then calls `attributesChanged(_:now:)`.
public protocol DataModelProvider: AccessChecker, Sendable {
    /// Every endpoint, in ascending order.
    var endpoints: [UInt16] { get }

    /// The server clusters of one endpoint; empty for an endpoint that does not exist.
    func clusters(on endpoint: UInt16) -> [ClusterDescription]

    /// The value of one attribute that the cluster's description lists (global attributes never reach here),
    /// or the status to report instead (UNSUPPORTED_READ, a cluster-specific FAILURE…). `isFabricFiltered` asks
    /// for only the accessing fabric's entries of a fabric-scoped list.
    func read(
        _ path: ConcreteAttributePath, isFabricFiltered: Bool, context: AccessContext
    ) -> Result<TLVValue, InteractionModelStatus>

    /// The cluster instance's data version (§7.10.3); the provider bumps it whenever one of its values changes.
    func dataVersion(of cluster: ConcreteClusterPath) -> UInt32

    /// Writes one attribute the engine has found writable by this subject; returns SUCCESS or why not
    /// (CONSTRAINT_ERROR, INVALID_DATA_TYPE…). A change bumps the cluster's data version.
    mutating func write(
        _ path: ConcreteAttributePath, value: TLVElement, context: AccessContext
    ) -> InteractionModelStatus

    /// Runs one accepted command the subject may invoke; `fields` is the command's fields structure, when sent.
    mutating func invoke(_ path: CommandPathIB, fields: TLVElement?, context: AccessContext) -> CommandOutcome

    /// The recorded events numbered at least `eventNumber`, in ascending number order; the engine filters them
    /// by path and access.
    func events(since eventNumber: UInt64) -> [EventDataIB]
}

extension DataModelProvider {
    /// Allows everything: a device without access control (tests, a commissioning-only tool).
    public func isAllowed(_ request: AccessRequest, for context: AccessContext) -> Bool {
        true
    }
}
