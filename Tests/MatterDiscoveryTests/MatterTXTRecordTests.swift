import MatterDiscovery
import Testing

@Suite struct MatterTXTRecordTests {
    private static func record(_ strings: [String]) -> MatterTXTRecord {
        MatterTXTRecord(
            entries: strings.map { string in
                let parts = string.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return TXTEntry(key: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : nil)
            })
    }

    @Test func readsCompliantKeys() {
        let txt = Self.record([
            "D=3840", "CM=2", "VP=65521+32769", "DT=257", "DN=Kitchen", "RI=0A0B", "PH=33", "PI=10",
            "SII=5000", "SAI=300", "SAT=4000", "T=6", "ICD=1",
        ])
        #expect(txt.longDiscriminator == 3840)
        #expect(txt.commissioningMode == 2)
        #expect(txt.vendorID == 65521)
        #expect(txt.productID == 32769)
        #expect(txt.deviceType == 257)
        #expect(txt.deviceName == "Kitchen")
        #expect(txt.rotatingID == "0A0B")
        #expect(txt.pairingHint == 33)
        #expect(txt.pairingInstruction == "10")
        #expect(txt.sessionIdleInterval == .milliseconds(5000))
        #expect(txt.sessionActiveInterval == .milliseconds(300))
        #expect(txt.sessionActiveThreshold == .milliseconds(4000))
        #expect(txt.tcpSupport == 6)
        #expect(txt.isLongIdleTimeICD == true)
    }

    /// CircuitMatter's off-spec TXT (`T=1`, empty `PI=`) and values that do not parse: absent, never fatal.
    @Test func readsLeniently() {
        let txt = Self.record([
            "D=3840", "CM=1", "T=1", "PI=", "VP=65524", "SII=abc", "SAI=3600001", "SAT=70000", "D2=1", "ICD=2", "PH",
        ])
        #expect(txt.longDiscriminator == 3840)
        #expect(txt.tcpSupport == 1)
        #expect(txt.pairingInstruction == nil)
        #expect(txt.vendorID == 65524)
        #expect(txt.productID == nil)
        #expect(txt.sessionIdleInterval == nil)
        #expect(txt.sessionActiveInterval == nil)
        #expect(txt.sessionActiveThreshold == nil)
        #expect(txt.isLongIdleTimeICD == nil)
        #expect(txt.pairingHint == nil)
        #expect(txt.entries.count == 11)
    }

    @Test func refusesOutOfRangeDiscriminators() {
        #expect(Self.record(["D=4096"]).longDiscriminator == nil)
        #expect(Self.record(["D=-1"]).longDiscriminator == nil)
        #expect(Self.record(["d=4095"]).longDiscriminator == 4095)
        #expect(Self.record(["VP=1+2+3"]).vendorID == nil)
    }
}
