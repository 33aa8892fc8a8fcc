import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct SourceConnectivityTests {
    typealias State = SourceConnectivity.ConnectivityState
    typealias Locality = SourceConnectivity.DataSourceLocality

    private func parts(_ pairs: [(State, Locality)]) -> [SourceConnectivity] {
        pairs.map { SourceConnectivity(connectivityState: $0.0, dataSourceLocality: $0.1) }
    }

    @Test func noPartsIsUnknownAndUnspecified() {
        #expect(SourceConnectivity.aggregate([]) == .unknown)
    }

    @Test(arguments: State.allCases)
    func partsThatAgreeGiveTheirState(_ state: State) {
        #expect(SourceConnectivity.aggregate(parts([(state, .direct), (state, .direct)])).connectivityState == state)
    }

    @Test func mixedStates() {
        #expect(
            SourceConnectivity.aggregate(parts([(.online, .direct), (.offline, .direct)])).connectivityState
                == .partiallyOnline)
        #expect(
            SourceConnectivity.aggregate(parts([(.online, .direct), (.unknown, .direct)])).connectivityState
                == .partiallyOnline)
        #expect(
            SourceConnectivity.aggregate(parts([(.partiallyOnline, .direct), (.offline, .direct)])).connectivityState
                == .partiallyOnline)
        // A sleeping part is reachable, if not at once: with an offline one the device is partly online.
        #expect(
            SourceConnectivity.aggregate(parts([(.asleep, .direct), (.offline, .direct)])).connectivityState
                == .partiallyOnline)
        // Offline and unknown parts: nothing is known to be online, nor everything to be offline.
        #expect(
            SourceConnectivity.aggregate(parts([(.offline, .direct), (.unknown, .direct)])).connectivityState
                == .unknown)
    }

    @Test func localities() {
        #expect(
            SourceConnectivity.aggregate(parts([(.online, .remote), (.online, .remote)])).dataSourceLocality == .remote)
        #expect(
            SourceConnectivity.aggregate(parts([(.online, .direct), (.online, .localPeer)])).dataSourceLocality
                == .mixed)
        // Unspecified parts do not count.
        #expect(
            SourceConnectivity.aggregate(parts([(.online, .direct), (.online, .unspecified)])).dataSourceLocality
                == .direct)
        #expect(
            SourceConnectivity.aggregate(parts([(.online, .unspecified), (.online, .unspecified)])).dataSourceLocality
                == .unspecified)
        #expect(
            SourceConnectivity.aggregate(parts([(.online, .mixed), (.online, .mixed)])).dataSourceLocality == .mixed)
    }
}
