import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing
import VendorFixture

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// Generated traits read from a fabricated attribute cache, as a node's reports would leave it.
@Suite struct TraitCollectionTests {
    static func report(
        _ endpoint: UInt16, _ cluster: UInt32, _ attribute: UInt32, _ value: TLVValue
    ) -> AttributeReportIB {
        .data(
            AttributeDataIB(
                dataVersion: 1, path: AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute),
                data: TLVElement(value)))
    }

    static func traits(_ cache: AttributeCache, endpoint: UInt16) -> TraitCollection {
        TraitCollection(
            snapshot: EndpointSnapshot(
                nodeID: 0x11, endpoint: endpoint, cache: cache, connectivity: .unknown, context: nil))
    }

    /// A dimmable light on endpoint 1 (on, level 200) and a speaker on endpoint 2 (off, level 40), both with OnOff and
    /// LevelControl; endpoint 1 accepts On, Off and Toggle, endpoint 2 only Off.
    static var lightAndSpeaker: AttributeCache {
        var cache = AttributeCache()
        cache.apply([
            report(1, 0x0006, 0x0000, .bool(true)), report(1, 0x0008, 0x0000, .unsigned(200)),
            report(
                1, 0x0006, 0xFFF9,
                .array([TLVElement(.unsigned(0)), TLVElement(.unsigned(1)), TLVElement(.unsigned(2))])),
            report(2, 0x0006, 0x0000, .bool(false)), report(2, 0x0008, 0x0000, .unsigned(40)),
            report(2, 0x0006, 0xFFF9, .array([TLVElement(.unsigned(0))])),
        ])
        return cache
    }

    @Test func anAttributeNeverReportedIsNilAndOneThatDoesNotDecodeIsDataLossOnAnExplicitRead() throws {
        var cache = AttributeCache()
        // OnOff reported as a string: not a boolean. OnTime never reported.
        cache.apply([Self.report(1, 0x0006, 0x0000, .utf8("on")), Self.report(1, 0x0006, 0xFFFD, .unsigned(6))])
        let onOff = try #require(Self.traits(cache, endpoint: 1)[OnOffTrait.self])
        #expect(try onOff.read(OnOffCluster.Attributes.onTime) == nil)
        #expect(try onOff.read(OnOffCluster.Attributes.clusterRevision) == 6)
        let malformed = HomeError(
            .dataLoss,
            "node 0000000000000011 endpoint 1 OnOff OnOff: the reported value does not decode as its type: "
                + "expected boolean, found UTF-8 string")
        #expect(throws: malformed) { try onOff.read(OnOffCluster.Attributes.onOff) }
        // The implicit read shows it as not reported, and says so once on standard error.
        #expect(onOff.attributes.onOff == nil)
        #expect(MalformedValueLog.shared.hasReported(malformed))
        #expect(onOff.attributes.onTime == nil)
        // An attribute of another cluster is not this trait's to read.
        #expect(throws: HomeError.self) { try onOff.read(LevelControlCluster.Attributes.currentLevel) }
    }

    @Test func twoEndpointsSharingOnOffKeepTheirOwnTraits() throws {
        let light = Self.traits(Self.lightAndSpeaker, endpoint: 1)
        let speaker = Self.traits(Self.lightAndSpeaker, endpoint: 2)
        #expect(light[OnOffTrait.self]?.attributes.onOff == true)
        #expect(speaker[OnOffTrait.self]?.attributes.onOff == false)
        #expect(light[LevelControlTrait.self]?.attributes.currentLevel == .value(200))
        #expect(speaker[LevelControlTrait.self]?.attributes.currentLevel == .value(40))
        #expect(light[OnOffTrait.self]?.metadata.endpoint == 1)
        #expect(speaker[OnOffTrait.self]?.metadata.endpoint == 2)
        #expect(light[OnOffTrait.self] != speaker[OnOffTrait.self])
    }

    @Test func aClusterTheEndpointDoesNotServeHasNoTrait() {
        let light = Self.traits(Self.lightAndSpeaker, endpoint: 1)
        #expect(light[ColorControlTrait.self] == nil)
        #expect(Self.traits(Self.lightAndSpeaker, endpoint: 3)[OnOffTrait.self] == nil)
    }

    @Test func supportsFollowsEachEndpointsAcceptedCommandList() throws {
        let light = try #require(Self.traits(Self.lightAndSpeaker, endpoint: 1)[OnOffTrait.self])
        let speaker = try #require(Self.traits(Self.lightAndSpeaker, endpoint: 2)[OnOffTrait.self])
        #expect(light.supports(OnOffCluster.Commands.Toggle.self))
        #expect(!speaker.supports(OnOffCluster.Commands.Toggle.self))
        #expect(speaker.supports(OnOffCluster.Commands.Off.self))
        // LevelControl reported no AcceptedCommandList: nothing is known to be supported.
        let level = try #require(Self.traits(Self.lightAndSpeaker, endpoint: 1)[LevelControlTrait.self])
        #expect(!level.supports(LevelControlCluster.Commands.MoveToLevel.self))
    }

    @Test func aValueOfTheWrongTypeReadsAsAbsent() throws {
        var cache = AttributeCache()
        cache.apply([Self.report(1, 0x0006, 0x0000, .utf8("on"))])
        let onOff = try #require(Self.traits(cache, endpoint: 1)[OnOffTrait.self])
        #expect(onOff.attributes.onOff == nil)
    }

    @Test func aTraitNotReadFromAHomeCannotSendCommands() async throws {
        let onOff = try #require(Self.traits(Self.lightAndSpeaker, endpoint: 1)[OnOffTrait.self])
        await #expect(
            throws: HomeError(.failedPrecondition, "this trait was not read from a home: it cannot send commands")
        ) {
            try await onOff.on()
        }
    }

    @Test func aVendorTraitIsReachedUnderItsNamespace() throws {
        var cache = AttributeCache()
        cache.apply([
            Self.report(1, 0xFFF1_FC01, 0x0000, .unsigned(1200)), Self.report(1, 0xFFF1_FC01, 0x0001, .unsigned(1)),
        ])
        let sprocket = try #require(Self.traits(cache, endpoint: 1)[AcmeClusters.AcmeSprocketTrait.self])
        #expect(sprocket.attributes.speed == 1200)
        #expect(sprocket.attributes.direction == .counterClockwise)
        #expect(Self.traits(Self.lightAndSpeaker, endpoint: 1)[AcmeClusters.AcmeSprocketTrait.self] == nil)
    }
}
