import MatterDiscovery
import Testing

/// RFC 5952 §4 text form.
@Suite struct IPv6AddressTests {
    @Test(arguments: [
        ("2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),  // §4.2.3: first of equal runs
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),  // §4.2.2: a single 0 is not shortened
        ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),  // §4.2.3: the longest run
        ("FF02::FB", "ff02::fb"),  // §4.3: lowercase
        ("::1", "::1"),
        ("::", "::"),
        ("fe80::", "fe80::"),
    ])
    func printsCanonically(text: String, canonical: String) throws {
        #expect(try #require(IPv6Address(text)).description == canonical)
    }

    @Test(arguments: [
        "", ":::", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "g::1", "1:2:3:4:5:6:7::8",
    ])
    func refusesMalformedText(text: String) {
        #expect(IPv6Address(text) == nil)
    }

    @Test func buildsFromNumbers() {
        #expect(IPv6Address(0xFF02_0000_0000_0000, 0xFB).description == "ff02::fb")
        #expect(IPv6Address(0x2001_0DB8_0000_0000, 0x0000_0000_0000_0001) == IPv6Address("2001:db8::1"))
        #expect(IPv4Address(0xE000_00FB).description == "224.0.0.251")
    }

    @Test func readsIPv4Text() {
        #expect(IPv4Address("224.0.0.251")?.bytes == [224, 0, 0, 251])
        #expect(IPv4Address("256.0.0.1") == nil)
        #expect(IPv4Address("1.2.3") == nil)
        #expect(IPv4Address(bytes: [127, 0, 0, 1])?.description == "127.0.0.1")
    }

    /// connectedhomeip's TestPeerAddressMulticast: fabric 0xA1A2A4A8B1B2B4B8, group 0xE10F.
    @Test func aGroupsMulticastAddressCarriesTheFabricAndTheGroup() {
        #expect(
            IPv6Address.matterGroup(fabricID: 0xA1A2_A4A8_B1B2_B4B8, groupID: 0xE10F).description
                == "ff35:40:fda1:a2a4:a8b1:b2b4:b800:e10f")
    }
}
