import MatterTestSupport
import Testing

@testable import MatterDiscovery

@Suite struct CommissionableAdvertisementTests {
    /// Matter Core §4.3.1: the TXT of a test light (VID 0xFFF1, PID 0x8000, device type 0x0100 On/Off Light).
    @Test func writesEveryGivenKeyInDecimal() throws {
        let advertisement = CommissionableAdvertisement(
            instanceName: "0123456789ABCDEF", port: 5540, longDiscriminator: 3840, commissioningMode: .basic,
            vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0100, deviceName: "Test Light", rotatingID: "0A0B",
            pairingHint: 33, pairingInstruction: "10",
            session: AdvertisedSessionParameters(
                sessionIdleInterval: .milliseconds(5000), sessionActiveInterval: .milliseconds(300), tcpSupport: 0)
        )
        #expect(
            try advertisement.txtEntries().map(\.description) == [
                "D=3840", "CM=1", "VP=65521+32768", "DT=256", "DN=Test Light", "RI=0A0B", "PH=33", "PI=10", "SII=5000",
                "SAI=300", "T=0",
            ])
        // What a browser reads back is what was meant.
        let read = MatterTXTRecord(entries: try advertisement.txtEntries())
        #expect(read.longDiscriminator == 3840)
        #expect(read.vendorID == 0xFFF1)
        #expect(read.productID == 0x8000)
        #expect(read.deviceType == 0x0100)
        #expect(read.sessionActiveInterval == .milliseconds(300))
    }

    @Test func writesVPWithoutProductAndOmitsWhatWasNotGiven() throws {
        let advertisement = CommissionableAdvertisement(
            instanceName: "0123456789ABCDEF", port: 5540, longDiscriminator: 1, commissioningMode: .closed,
            vendorID: 4937)
        #expect(try advertisement.txtEntries().map(\.description) == ["D=1", "CM=0", "VP=4937"])
    }

    /// §4.3.1.3: `_L` and `_S` always; `_V`, `_T` when known; `_CM` only while open.
    @Test func listsTheSubtypes() {
        var advertisement = CommissionableAdvertisement(
            instanceName: "0123456789ABCDEF", port: 5540, longDiscriminator: 3840, vendorID: 0xFFF1, deviceType: 257)
        #expect(advertisement.subtypes.map(\.label) == ["_L3840", "_S15", "_V65521", "_T257", "_CM"])
        advertisement.commissioningMode = .closed
        advertisement.vendorID = nil
        advertisement.deviceType = nil
        advertisement.longDiscriminator = 0x0FF
        #expect(advertisement.subtypes.map(\.label) == ["_L255", "_S0"])
    }

    @Test func refusesOutOfRangeValues() {
        let good = CommissionableAdvertisement(instanceName: "0123456789ABCDEF", port: 5540, longDiscriminator: 3840)
        var lowercase = good
        lowercase.instanceName = "0123456789abcdef"
        #expect(throws: AdvertisementError.invalidInstanceName("0123456789abcdef")) { try lowercase.txtEntries() }
        var short = good
        short.instanceName = "ABC"
        #expect(throws: AdvertisementError.invalidInstanceName("ABC")) { try short.txtEntries() }
        var wide = good
        wide.longDiscriminator = 4096
        #expect(throws: AdvertisementError.discriminatorOutOfRange(4096)) { try wide.txtEntries() }
        var named = good
        named.deviceName = String(repeating: "x", count: 33)
        #expect(throws: AdvertisementError.valueTooLong(key: "DN", length: 33, maximum: 32)) { try named.txtEntries() }
        #expect(
            AdvertisementError.valueTooLong(key: "DN", length: 33, maximum: 32).description
                == "TXT DN of 33 bytes; it holds at most 32")
    }

    @Test func drawsInstanceNamesOf16UppercaseHexDigits() throws {
        var random = SplitMix64(seed: 7)
        let first = CommissionableAdvertisement.randomInstanceName(using: &random)
        let second = CommissionableAdvertisement.randomInstanceName(using: &random)
        #expect(first != second)
        for name in [first, second] {
            #expect(name.count == 16)
            #expect(name.allSatisfy { $0.isHexDigit && !$0.isLowercase })
            #expect(throws: Never.self) {
                try CommissionableAdvertisement(instanceName: name, port: 1, longDiscriminator: 0).txtEntries()
            }
        }
    }
}
