import HomeRecords
import MatterDataModel
import MatterInteraction
import Testing

@testable import HomeHub

@Suite(.timeLimit(.minutes(1))) struct InteractionRouterTests {
    @Test func twoNodesOnOneTransportEachGetTheirOwnReports() async throws {
        let fixture = try LiveConnectionFixture()
        let kitchen = try LoopbackLight(sessionIDBase: 100)
        let hall = try LoopbackLight(sessionIDBase: 300)
        await kitchen.start()
        await hall.start()
        let kitchenConnection = await fixture.connect(to: kitchen, nodeID: 1, maxInterval: 5)
        let hallConnection = await fixture.connect(to: hall, nodeID: 2, maxInterval: 5)
        try await kitchenConnection.connected()
        try await hallConnection.connected()
        var kitchenEvents = await kitchenConnection.events().makeAsyncIterator()
        var hallEvents = await hallConnection.events().makeAsyncIterator()
        await kitchenEvents.skipSnapshot()
        await hallEvents.skipSnapshot()

        await hall.set(isOn: true)
        #expect(await hallEvents.nextAttributes() == [LightDataModel.onOffPath])
        await kitchen.set(isOn: true)
        #expect(await kitchenEvents.nextAttributes() == [LightDataModel.onOffPath])
        await hall.set(isOn: false)
        #expect(await hallEvents.nextAttributes() == [LightDataModel.onOffPath])
        #expect(try await kitchenConnection.value(OnOffCluster.Attributes.onOff, endpoint: 1) == true)
        #expect(try await hallConnection.value(OnOffCluster.Attributes.onOff, endpoint: 1) == false)
        await fixture.stop([kitchenConnection, hallConnection], [kitchen, hall])
    }
}
