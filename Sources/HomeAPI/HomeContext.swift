import HomeHub

/// What every value of one `Home` shares: the hub, the home model over its store, and the projections the queries
/// read. Reads come from memory; writes go to the store, and the model has taken them in when the write returns.
final class HomeContext: Sendable {
    let hub: Hub
    let model: HomeModel
    let projection = DeviceProjection()
    let live: LiveNodes
    let commissioning: CommissioningSettings
    var store: HubStore { hub.store }

    init(
        hub: Hub, interfaces: [String], settings: NodeConnection.Settings, commissioning: CommissioningSettings
    ) throws(HubStoreError) {
        self.hub = hub
        self.commissioning = commissioning
        model = try HomeModel(store: hub.store)
        live = LiveNodes(hub: hub, model: model, interfaces: interfaces, settings: settings)
        model.observe { [weak self] snapshot, changes in
            guard let self else { return }
            projection.apply(changes, snapshot: snapshot, context: self)
        }
    }

    /// The `Home` was let go of: the projections stop keeping devices (each holds this context).
    func close() {
        projection.close()
    }

    /// A write to the store; the model re-reads what it changed before this returns.
    @discardableResult
    func write<Result>(_ body: (HubStore) throws(HubStoreError) -> Result) throws(HomeError) -> Result {
        do {
            return try body(store)
        } catch {
            throw HomeError(error)
        }
    }

    /// A query over the whole home: re-read after each change to the home's shape (not attribute values).
    func query<Element>(_ read: @escaping @Sendable (HomeContext) throws(HomeError) -> Set<Element>) -> Query<Element> {
        Query(model: model, scope: .home) { () throws(HomeError) in
            try self.requireCurrentModel()
            return try read(self)
        }
    }

    /// Refuses to answer from a model that could not take in the store's last change: the store holds something this
    /// build cannot read, and an answer from memory would hide it.
    func requireCurrentModel() throws(HomeError) {
        if let failure = model.failure { throw HomeError(failure) }
    }

    /// The structure a device without a room belongs to.
    static func defaultStructureID(_ snapshot: HomeModel.Snapshot) throws(HomeError) -> String {
        guard let id = snapshot.defaultStructureID else {
            throw HomeError(.dataLoss, "the home has no structure: it needs its default one")
        }
        return id
    }
}
