import MatterDiscovery
import Testing

@testable import MatterPlatform

/// Only refusals that happen before any packet is sent: multicast runs in the lab namespace, never here.
@Suite struct MulticastDNSQuerierTests {
    @Test func refusesToRunWithoutInterfaces() async {
        await #expect(throws: MulticastDNSError.noInterfaces) {
            try await MulticastDNSQuerier().browseCommissionable(.all, interfaces: [], timeout: .seconds(1))
        }
    }

    @Test func refusesAnUnknownInterfaceBeforeSending() async {
        await #expect(throws: MulticastDNSError.socket(.unknownInterface("no-such-if0"))) {
            try await MulticastDNSQuerier().browseCommissionable(
                .all, interfaces: ["no-such-if0"], timeout: .seconds(1))
        }
    }
}
