import MatterDiscovery
import Testing

@testable import MatterPlatform

/// Unicast on loopback only: nothing here sends multicast or leaves the machine.
@Suite struct UDPSocketTests {
    @Test func roundTripsOverIPv4Loopback() throws {
        let loopback = IPv4Address(0x7F00_0001)
        try roundTrip(family: .ipv4, bindAddress: .ipv4(loopback, port: 0))
    }

    @Test func roundTripsOverIPv6Loopback() throws {
        let loopback = IPv6Address(0, 1)
        try roundTrip(family: .ipv6, bindAddress: .ipv6(loopback, port: 0))
    }

    private func roundTrip(family: UDPSocket.Family, bindAddress: SocketAddress) throws {
        let server = try UDPSocket(family: family)
        try server.bind(to: bindAddress)
        let client = try UDPSocket(family: family)
        try client.bind(to: bindAddress)
        let serverAddress = try server.localAddress()
        let clientAddress = try client.localAddress()
        #expect(serverAddress.port != 0)
        #expect(serverAddress != clientAddress)

        #expect(try server.receive(timeout: .zero) == nil)
        try client.send([1, 2, 3], to: serverAddress)
        let request = try #require(try server.receive(timeout: .seconds(2)))
        #expect(request.bytes == [1, 2, 3])
        #expect(request.sender == clientAddress)
        try server.send(Array(request.bytes.reversed()), to: request.sender)
        let reply = try #require(try client.receive(timeout: .seconds(2)))
        #expect(reply.bytes == [3, 2, 1])
        #expect(reply.sender == serverAddress)
    }

    @Test func refusesAnAddressOfTheOtherFamily() throws {
        let socket = try UDPSocket(family: .ipv6)
        let address = SocketAddress.ipv4(IPv4Address(0x7F00_0001), port: 9)
        #expect(throws: SocketError.addressFamilyMismatch(address, socket: "IPv6")) {
            try socket.send([0], to: address)
        }
    }

    @Test func reportsSystemErrorsWithErrnoText() throws {
        let first = try UDPSocket(family: .ipv4)
        try first.bind(to: .ipv4(IPv4Address(0x7F00_0001), port: 0))
        let taken = try first.localAddress()
        let second = try UDPSocket(family: .ipv4)
        #expect(throws: SocketError.system(operation: "bind to \(taken)", code: 98)) { try second.bind(to: taken) }
        #expect(
            SocketError.system(operation: "bind to 127.0.0.1:5353", code: 98).description
                == "bind to 127.0.0.1:5353 failed: Address already in use (errno 98)")
        #expect(throws: SocketError.unknownInterface("no-such-if0")) {
            try NetworkInterface.index(named: "no-such-if0")
        }
    }

    @Test func printsAddresses() throws {
        #expect(SocketAddress.ipv4(IPv4Address(0x7F00_0001), port: 5353).description == "127.0.0.1:5353")
        #expect(SocketAddress.ipv6(IPv6Address(0, 1), port: 5540).description == "[::1]:5540")
        #expect(
            SocketAddress.ipv6(try #require(IPv6Address("fe80::1")), port: 5353, scopeID: 2).description
                == "[fe80::1%2]:5353")
    }
}
