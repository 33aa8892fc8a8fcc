import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

@testable import HomeHub

@Suite struct NodeEventTests {
    static func record(
        _ number: UInt64, event: UInt32, timestamp: EventDataIB.Timestamp?, data: TLVElement?
    ) -> EventReportIB {
        .data(
            EventDataIB(
                path: EventPathIB(endpoint: 2, cluster: SwitchCluster.id.rawValue, event: event), eventNumber: number,
                priority: 1, timestamp: timestamp, data: data))
    }

    /// §10.6.9: a delta timestamp counts from the event before it in the same report.
    @Test func deltaTimestampsResolveAgainstTheEventBefore() {
        let press = SwitchCluster.Events.InitialPress(newPosition: 1)
        let events = NodeEvent.events(of: [
            Self.record(7, event: 1, timestamp: .systemMilliseconds(5_000), data: TLVElement(press.tlvValue())),
            Self.record(8, event: 3, timestamp: .deltaSystemMilliseconds(120), data: nil),
            .status(EventStatusIB(path: EventPathIB(endpoint: 2), status: StatusIB(status: .unsupportedEvent))),
            Self.record(9, event: 1, timestamp: .deltaEpochMilliseconds(5), data: nil),
        ])
        #expect(events.map(\.number) == [7, 8, 9])
        #expect(events.map(\.timestamp) == [.systemMilliseconds(5_000), .systemMilliseconds(5_120), nil])
        #expect(events.first?.priority == .info && events.first?.endpoint == 2)
    }

    @Test func rendersTheEventAndItsFieldsByName() {
        let press = NodeEvent(
            endpoint: 2, cluster: SwitchCluster.id, event: SwitchCluster.Events.MultiPressComplete.id, number: 1,
            priority: .info, timestamp: nil,
            data: TLVElement(
                SwitchCluster.Events.MultiPressComplete(previousPosition: 1, totalNumberOfPressesCounted: 2)
                    .tlvValue()))
        #expect(
            EventText.render(press) == "Switch.MultiPressComplete  previousPosition=1 totalNumberOfPressesCounted=2")
        let bare = NodeEvent(
            endpoint: 0, cluster: ClusterID(rawValue: 0xFFF1_FC01), event: EventID(rawValue: 2), number: 2,
            priority: .debug, timestamp: nil, data: TLVElement(.structure([TLVElement(tag: .context(3), .bool(true))])))
        #expect(EventText.render(bare) == "0xFFF1FC01.0x0002  3=true")
    }
}
