import MatterDataModel
import MatterTLV
import MatterTestSupport
import Testing

/// Each vector is the command's fields as CircuitMatter 0.4.1's TLV encoder (clusters/device_management/
/// node_operational_credentials.py) writes them: encoding the generated struct gives the same bytes, decoding them
/// the same values.
@Suite struct OperationalCredentialsClusterTests {
    typealias Commands = OperationalCredentialsCluster.Commands

    private func check<Value: TLVCodable & Equatable>(_ value: Value, _ bytes: String) throws {
        #expect(TLVWriter.encode(TLVElement(value.tlvValue())) == hex(bytes))
        #expect(try Value(tlv: TLVReader.decode(hex(bytes))) == value)
    }

    @Test func attestationRequestAndResponse() throws {
        try check(
            Commands.AttestationRequest(attestationNonce: [UInt8](repeating: 0xCC, count: 32)),
            "15 30 00 20" + String(repeating: " cc", count: 32) + " 18")
        try check(
            Commands.AttestationResponse(
                attestationElements: [1, 2, 3, 4, 5, 6, 7, 8], attestationSignature: [0xAA, 0xAA, 0xAA, 0xAA]),
            "15 30 00 08 01 02 03 04 05 06 07 08 30 01 04 aa aa aa aa 18")
    }

    @Test func certificateChainRequestForThePAI() throws {
        try check(Commands.CertificateChainRequest(certificateType: .paiCertificate), "15 24 00 02 18")
        try check(Commands.CertificateChainResponse(certificate: [0x30, 0x82]), "15 30 00 02 30 82 18")
    }

    @Test func csrRequestAndResponse() throws {
        try check(
            Commands.CSRRequest(csrNonce: Array(0x10...0x17), isForUpdateNOC: true),
            "15 30 00 08 10 11 12 13 14 15 16 17 29 01 18")
        try check(
            Commands.CSRResponse(
                nocsrElements: [0x15, 0x30, 0x01, 0x00, 0x18], attestationSignature: [0xBB, 0xBB, 0xBB]),
            "15 30 00 05 15 30 01 00 18 30 01 03 bb bb bb 18")
    }

    @Test func addNOCWithAnICAC() throws {
        try check(
            Commands.AddNOC(
                nocValue: [1, 2, 3], icacValue: [4, 5], ipkValue: Array(0..<16),
                caseAdminSubject: 0x1122_3344_5566_7788,
                adminVendorId: 0xFFF1),
            "15 30 00 03 01 02 03 30 01 02 04 05 30 02 10 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f "
                + "27 03 88 77 66 55 44 33 22 11 25 04 f1 ff 18")
    }

    @Test func nocResponseAndRemoveFabric() throws {
        try check(
            Commands.NOCResponse(statusCode: .fabricConflict, fabricIndex: 3, debugText: "dup"),
            "15 24 00 09 24 01 03 2c 02 03 64 75 70 18")
        #expect(
            OperationalCredentialsCluster.NodeOperationalCertStatusEnum.fabricConflict.description
                == "FabricConflict (9)")
        try check(Commands.RemoveFabric(fabricIndex: 2), "15 24 00 02 18")
    }

    @Test func commandIDsFollowTheIDL() {
        #expect(
            [
                Commands.AttestationRequest.id, Commands.CertificateChainRequest.id, Commands.CSRRequest.id,
                Commands.AddNOC.id,
                Commands.RemoveFabric.id, Commands.AddTrustedRootCertificate.id,
            ] == [0x00, 0x02, 0x04, 0x06, 0x0A, 0x0B])
        #expect(
            [
                Commands.AttestationResponse.id, Commands.CertificateChainResponse.id, Commands.CSRResponse.id,
                Commands.NOCResponse.id,
            ]
                == [0x01, 0x03, 0x05, 0x08])
        #expect(Commands.AddTrustedRootCertificate.Response.self == DefaultSuccess.self)
        #expect(Commands.RemoveFabric.Response.self == Commands.NOCResponse.self)
    }

    @Test func fabricDescriptorWithoutAndWithItsFabricIndex() throws {
        // CircuitMatter writes no FabricIndex (tag 254); the generated fabric-scoped struct has it optional…
        var fabric = OperationalCredentialsCluster.FabricDescriptorStruct(
            rootPublicKey: [4, 1], vendorID: 0xFFF1, fabricID: 1, nodeID: 0x1B669, label: "")
        try check(fabric, "15 30 01 02 04 01 25 02 f1 ff 24 03 01 26 04 69 b6 01 00 2c 05 00 18")
        // …and carries it last, as the spec has it (same bytes plus "24 fe 01").
        fabric.fabricIndex = 1
        try check(fabric, "15 30 01 02 04 01 25 02 f1 ff 24 03 01 26 04 69 b6 01 00 2c 05 00 24 fe 01 18")
    }
}
