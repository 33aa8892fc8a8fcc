import MatterDataModel
import MatterTestSupport
import MatterTLV
import Testing

/// The generated GeneralCommissioning structs against the ArmFailSafe an iPhone sent (the same capture as
/// MatterInteractionTests' CapturedMessages.appleArmFailSafe: ExpiryLengthSeconds 60, Breadcrumb 3).
@Suite struct GeneralCommissioningClusterTests {
    static let appleArmFailSafe = hex("""
        15 28 00 28 01 36 02 15 37 00 24 00 00 24 01 30 24 02 00 18 35 01 24 00 3c 24 01 03
        18 18 18 24 ff 0c 18
        """)

    @Test func decodesTheArmFailSafeFieldsAnIPhoneSent() throws {
        let message = try TLVReader.decode(Self.appleArmFailSafe)
        guard case .array(let invokes)? = message[context: 2]?.value, let invoke = invokes.first else {
            Issue.record("no InvokeRequests")
            return
        }
        let path = try #require(invoke[context: 0])
        #expect(path[context: 1]?.value == .unsigned(UInt64(GeneralCommissioningCluster.id.rawValue)))
        #expect(path[context: 2]?.value == .unsigned(UInt64(GeneralCommissioningCluster.Commands.ArmFailSafe.id.rawValue)))
        let fields = try #require(invoke[context: 1])
        let command = try GeneralCommissioningCluster.Commands.ArmFailSafe(tlv: fields)
        #expect(command == .init(expiryLengthSeconds: 60, breadcrumb: 3))
        #expect(TLVWriter.encode(TLVElement(tag: .context(1), command.tlvValue())) == hex("35 01 24 00 3c 24 01 03 18"))
    }

    @Test func armFailSafeNeedsAdministerAndAnswersWithItsResponse() {
        typealias ArmFailSafe = GeneralCommissioningCluster.Commands.ArmFailSafe
        #expect(GeneralCommissioningCluster.id == 0x0030)
        #expect(ArmFailSafe.invokePrivilege == .administer)
        #expect(ArmFailSafe.Response.id == 0x01)
        #expect(GeneralCommissioningCluster.Commands.CommissioningComplete.id == 0x04)
        #expect(GeneralCommissioningCluster.Commands.CommissioningCompleteResponse.id == 0x05)
    }

    @Test func armFailSafeResponseRoundTripsWithAnEmptyDebugText() throws {
        let response = GeneralCommissioningCluster.Commands.ArmFailSafeResponse(errorCode: .busyWithOtherAdmin, debugText: "")
        // {0: 4 (BusyWithOtherAdmin), 1: ""}
        let bytes = hex("15 24 00 04 2c 01 00 18")
        #expect(TLVWriter.encode(TLVElement(response.tlvValue())) == bytes)
        #expect(try GeneralCommissioningCluster.Commands.ArmFailSafeResponse(tlv: TLVReader.decode(bytes)) == response)
    }
}
