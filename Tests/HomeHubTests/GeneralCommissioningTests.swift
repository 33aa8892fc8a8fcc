import MatterInteraction
import MatterTLV
import Testing
@testable import HomeHub

struct GeneralCommissioningTests {
    /// InvokeRequest ArmFailSafe (ExpiryLengthSeconds 60, Breadcrumb 3) as an iPhone sent it right after PASE
    /// (published in a device firmware's test suite, test_matter_im.c "apple_armfailsafe"), revision 12.
    static let iPhoneArmFailSafe = hex("""
        15 28 00 28 01 36 02 15 37 00 24 00 00 24 01 30 24 02 00 18 35 01 24 00 3c 24 01 03
        18 18 18 24 ff 0c 18
        """)

    @Test func armFailSafeInvokeIsExactlyWhatAnIPhoneSends() throws {
        let command = ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 3)
        let data = CommandDataIB(path: CommandPathIB(endpoint: 0, cluster: ArmFailSafe.clusterID, command: ArmFailSafe.commandID),
                                 fields: TLVElement(command.tlvValue()))
        #expect(InvokeRequestMessage(invokeRequests: [data]).encoded() == Self.iPhoneArmFailSafe)
        let decoded = try #require(try InvokeRequestMessage(payload: Self.iPhoneArmFailSafe).invokeRequests.first?.fields)
        #expect(try ArmFailSafe(tlv: decoded) == command)
    }

    /// ArmFailSafeResponse(BusyWithOtherAdmin, "busy") as CircuitMatter 0.4.1's TLV encoder writes it.
    @Test func armFailSafeResponseDecodesAsCircuitMatterEncodesIt() throws {
        let bytes = hex("15 24 00 04 2c 01 04 62 75 73 79 18")
        let response = try ArmFailSafeResponse(tlv: TLVReader.decode(bytes))
        #expect(response == ArmFailSafeResponse(errorCode: .busyWithOtherAdmin, debugText: "busy"))
        #expect(TLVWriter.encode(TLVElement(response.tlvValue())) == bytes)
    }

    @Test func setRegulatoryConfigCarriesItsFieldsUnderTheIDLTags() throws {
        let command = SetRegulatoryConfig(newRegulatoryConfig: .indoorOutdoor, countryCode: "XX", breadcrumb: 2)
        let bytes = hex("15 24 00 02 2c 01 02 58 58 24 02 02 18")
        #expect(TLVWriter.encode(TLVElement(command.tlvValue())) == bytes)
        #expect(try SetRegulatoryConfig(tlv: TLVReader.decode(bytes)) == command)
        #expect(SetRegulatoryConfig.commandID == 0x02 && SetRegulatoryConfigResponse.commandID == 0x03)
        #expect(CommissioningComplete.commandID == 0x04 && CommissioningCompleteResponse.commandID == 0x05)
        #expect(TLVWriter.encode(TLVElement(CommissioningComplete().tlvValue())) == [0x15, 0x18])
    }

    @Test func basicCommissioningInfoDecodesWithAndWithoutTheCumulativeLimit() throws {
        // {0: 60} as the chip-tool lighting app reported attribute 1 to chip-tool (matter.js SecureSessionTest).
        let old = try BasicCommissioningInfo(tlv: TLVReader.decode(hex("15 24 00 3c 18")))
        #expect(old == BasicCommissioningInfo(failSafeExpiryLengthSeconds: 60, maxCumulativeFailsafeSeconds: nil))
        let current = BasicCommissioningInfo(failSafeExpiryLengthSeconds: 60, maxCumulativeFailsafeSeconds: 900)
        #expect(TLVWriter.encode(TLVElement(current.tlvValue())) == hex("15 24 00 3c 25 01 84 03 18"))
    }

    @Test func commissioningErrorsDescribeThemselvesByNameAndUnknownOnesByNumber() throws {
        #expect(CommissioningErrorCode.noFailSafe.description == "NoFailSafe (3)")
        #expect(CommissioningErrorCode(rawValue: 200).description == "unknown value 200")
        #expect(try CommissioningErrorCode(tlv: TLVElement(.unsigned(7))) == .tcMinVersionNotMet)
        #expect(throws: TLVError.integerOutOfRange(value: "256", type: "UInt8")) {
            try CommissioningErrorCode(tlv: TLVElement(.unsigned(256)))
        }
    }
}
