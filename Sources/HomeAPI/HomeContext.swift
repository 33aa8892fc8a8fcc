import HomeHub

/// What every value of one `Home` shares: the hub, its store, and the feed of changes. Reads are consistent snapshots;
/// writes go to the store and notify this process's queries at once.
final class HomeContext: Sendable {
    let hub: Hub
    let feed: ChangeFeed
    let live: LiveNodes
    let commissioning: CommissioningSettings
    var store: HubStore { hub.store }

    init(hub: Hub, interfaces: [String], settings: NodeConnection.Settings, commissioning: CommissioningSettings) {
        self.hub = hub
        self.commissioning = commissioning
        feed = ChangeFeed(store: hub.store)
        live = LiveNodes(hub: hub, interfaces: interfaces, settings: settings, feed: feed)
    }

    /// Runs `body` until the change counter is the same before and after it, so its several reads see one state.
    func consistentRead<Result>(_ body: (HubStore) throws(HubStoreError) -> Result) throws(HomeError) -> Result {
        do {
            for _ in 0..<HomeLimits.snapshotAttempts {
                let before = try store.changeCounter()
                let result = try body(store)
                if try store.changeCounter() == before { return result }
            }
        } catch {
            throw HomeError(error)
        }
        throw HomeError(.aborted, "the home changed during each of \(HomeLimits.snapshotAttempts) reads; try again")
    }

    @discardableResult
    func write<Result>(_ body: (HubStore) throws(HubStoreError) -> Result) throws(HomeError) -> Result {
        let result: Result
        do {
            result = try body(store)
        } catch {
            throw HomeError(error)
        }
        feed.notify()
        return result
    }

    func query<Element>(_ read: @escaping @Sendable (HomeContext) throws(HomeError) -> Set<Element>) -> Query<Element> {
        Query(feed: feed) { () throws(HomeError) in try read(self) }
    }

    /// The structure a device without a room belongs to.
    static func defaultStructureID(_ structures: [StructureRecord]) throws(HubStoreError) -> String {
        guard let first = structures.first else {
            throw .corrupt(
                table: "structures", column: "structure_id", reason: "no structure: the home needs its default one")
        }
        return first.id
    }
}
