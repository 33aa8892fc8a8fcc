import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

@testable import HomeHub

@Suite struct HubStoreAttributeCachesTests {
    static func cache(label: String, version: UInt32) -> AttributeCache {
        var cache = AttributeCache()
        _ = cache.apply([
            .data(
                AttributeDataIB(
                    dataVersion: version, path: AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 5),
                    data: TLVElement(.utf8(label))))
        ])
        return cache
    }

    /// A restarted hub reads each node's last stored cache with its data versions; the newest replaces the one
    /// before; a cache for a node the store does not hold is skipped; the cache goes with its node; a damaged one is
    /// none.
    @Test func theLastCacheOutlivesTheProcessAndGoesWithItsNode() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let nodeID: UInt64 = 0x42
            try await store.beginCommissioning(
                nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8001, attestation: HubStoreTests.trusted)
            #expect(await store.attributeCache(of: nodeID) == nil)
            await store.saveAttributeCaches([
                nodeID: Self.cache(label: "Kitchen", version: 7), 0x99: Self.cache(label: "x", version: 1),
            ])
            await store.saveAttributeCaches([nodeID: Self.cache(label: "Hall", version: 8)])

            let restarted = try await HubStore(path: base + "/hub.sqlite")
            let read = try #require(await restarted.attributeCache(of: nodeID))
            #expect(read == Self.cache(label: "Hall", version: 8))
            #expect(try read.value(BasicInformationCluster.Attributes.nodeLabel, endpoint: 0) == "Hall")
            #expect(read.dataVersionFilters.map(\.dataVersion) == [8])
            #expect(await restarted.attributeCache(of: 0x99) == nil)

            try store.database.execute("UPDATE attribute_caches SET cache = x'7B'")
            #expect(await store.attributeCache(of: nodeID) == nil)
            try await restarted.deleteNode(nodeID)
            #expect(try store.database.query("SELECT * FROM attribute_caches").isEmpty)
        }
    }
}
