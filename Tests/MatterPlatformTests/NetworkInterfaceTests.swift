import MatterDiscovery
import Testing

@testable import MatterPlatform

/// Reads only: nothing here opens a socket.
@Suite struct NetworkInterfaceTests {
    @Test func listsTheLoopbackAddresses() throws {
        let addresses = try NetworkInterface.addresses(named: "lo")
        #expect(addresses.ipv4.contains(IPv4Address(0x7F00_0001)))
        #expect(addresses.ipv6 == (NetworkInterface.hasIPv6Address(named: "lo") ? [IPv6Address(0, 1)] : []))
    }

    @Test func refusesAnUnknownInterface() {
        #expect(throws: SocketError.unknownInterface("no-such-if0")) {
            try NetworkInterface.addresses(named: "no-such-if0")
        }
    }
}
