import MatterDataModel
import MatterTLV
import Testing

@Suite struct ClusterEnumTests {
    @Test func aValueThisCodeDoesNotKnowStillDecodesAndRoundTrips() throws {
        let unknown = try OnOffCluster.StartUpOnOffEnum(tlv: TLVElement(.unsigned(7)))
        #expect(unknown.rawValue == 7)
        #expect(![OnOffCluster.StartUpOnOffEnum.off, .on, .toggle].contains(unknown))
        #expect(unknown.tlvValue() == .unsigned(7))
    }

    @Test func knownValuesMatchTheSpec() {
        #expect(OnOffCluster.StartUpOnOffEnum.toggle.rawValue == 2)
        #expect(DoorLockCluster.DlLockState.unlocked.rawValue == 2)
        #expect(WindowCoveringCluster.TypeEnum.tiltBlindLiftAndTilt.rawValue == 8)
    }

    @Test func aValueDescribesItselfByItsSpecNameAndAnUnknownOneByNumber() {
        #expect(GeneralCommissioningCluster.CommissioningErrorEnum.noFailSafe.description == "NoFailSafe (3)")
        #expect(GeneralCommissioningCluster.CommissioningErrorEnum.ok.description == "OK (0)")
        #expect(OperationalCredentialsCluster.NodeOperationalCertStatusEnum.invalidNOC.description == "InvalidNOC (3)")
        #expect(GeneralCommissioningCluster.CommissioningErrorEnum(rawValue: 200).description == "unknown value 200")
    }

    @Test func aValueBeyondTheBaseTypeIsRejected() {
        #expect(throws: TLVError.integerOutOfRange(value: "256", type: "UInt8")) {
            try OnOffCluster.StartUpOnOffEnum(tlv: TLVElement(.unsigned(256)))
        }
    }
}
