import MatterDiscovery
import Testing

@testable import MatterPlatform

/// Only refusals that happen before any socket exists: the responder multicasts, so it runs in the lab
/// namespace (scripts/interop-responder.sh), never here.
@Suite struct MulticastDNSResponderTests {
    @Test func refusesToRunWithoutInterfaces() {
        #expect(throws: MulticastDNSError.noInterfaces) {
            try MulticastDNSResponder(interfaces: [], hostName: "0011223344556677.local")
        }
    }

    @Test func refusesAnUnknownInterfaceBeforeBinding() {
        #expect(throws: MulticastDNSError.socket(.unknownInterface("no-such-if0"))) {
            try MulticastDNSResponder(interfaces: ["no-such-if0"], hostName: "0011223344556677.local")
        }
    }

    @Test func describesARefusedAdvertisement() {
        let error = MulticastDNSError.advertisement(.discriminatorOutOfRange(5000))
        #expect(error.description == "advertisement refused: discriminator 5000 does not fit 12 bits (at most 4095)")
    }
}
