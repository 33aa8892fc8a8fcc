import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

@testable import HomeHub

struct AttributeCachePartsListTests {
    private static let descriptor = DescriptorCluster.id.rawValue
    private static let partsList = DescriptorCluster.Attributes.partsList.id.rawValue

    private static func data(
        _ endpoint: UInt16, _ cluster: UInt32, _ attribute: UInt32, _ value: TLVValue
    ) -> AttributeReportIB {
        .data(
            AttributeDataIB(
                dataVersion: 1, path: AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute),
                data: TLVElement(value)))
    }

    private static func parts(_ endpoints: [UInt64]) -> TLVValue {
        .array(endpoints.map { TLVElement(.unsigned($0)) })
    }

    private static let bridge: [AttributeReportIB] = [
        data(0, descriptor, partsList, parts([1, 2, 4])), data(1, descriptor, partsList, parts([2, 4])),
        data(2, OnOffCluster.id.rawValue, 0, .bool(true)), data(4, OnOffCluster.id.rawValue, 0, .bool(false)),
        data(4, descriptor, partsList, parts([])),
    ]

    @Test func anEndpointTheRootNoLongerListsIsForgottenAndReportedChanged() {
        var cache = AttributeCache()
        #expect(cache.applyFollowingEndpoints(Self.bridge).count == 5)
        let changed = cache.applyFollowingEndpoints([
            Self.data(0, Self.descriptor, Self.partsList, Self.parts([1, 2])),
            Self.data(1, Self.descriptor, Self.partsList, Self.parts([2])),
        ])
        #expect(
            changed == [
                ConcreteAttributePath(endpoint: 0, cluster: Self.descriptor, attribute: Self.partsList),
                ConcreteAttributePath(endpoint: 1, cluster: Self.descriptor, attribute: Self.partsList),
                ConcreteAttributePath(endpoint: 4, cluster: OnOffCluster.id.rawValue, attribute: 0),
                ConcreteAttributePath(endpoint: 4, cluster: Self.descriptor, attribute: Self.partsList),
            ])
        #expect(Set(cache.paths.map(\.endpoint)) == [0, 1, 2])
    }

    /// A report that leaves the root's PartsList alone forgets nothing, even when the cache holds endpoints it does
    /// not list (a subscription to some paths only may never see it).
    @Test func withoutAChangeToTheRootsPartsListNothingIsForgotten() {
        var cache = AttributeCache()
        cache.applyFollowingEndpoints([Self.data(0, Self.descriptor, Self.partsList, Self.parts([1]))])
        let changed = cache.applyFollowingEndpoints([Self.data(7, OnOffCluster.id.rawValue, 0, .bool(true))])
        #expect(changed == [ConcreteAttributePath(endpoint: 7, cluster: OnOffCluster.id.rawValue, attribute: 0)])
        #expect(Set(cache.paths.map(\.endpoint)) == [0, 7])
    }
}
