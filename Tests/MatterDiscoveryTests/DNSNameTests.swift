import MatterDiscovery
import Testing

@Suite struct DNSNameTests {
    @Test func comparesASCIICaseInsensitively() {
        #expect(DNSName("ABCD._MatterC._udp.local") == DNSName("abcd._matterc._udp.LOCAL"))
        #expect(Set([DNSName("A.local"), DNSName("a.local.")]).count == 1)
        #expect(DNSName("a.local") != DNSName("b.local"))
    }

    @Test func matchesSuffixes() {
        #expect(DNSName("x._matterc._udp.local").hasSuffix("_MATTERC._udp.local"))
        #expect(!DNSName("local").hasSuffix("_udp.local"))
        #expect(DNSName("_matterc._udp.local").prepending("x") == "x._matterc._udp.local")
    }
}
