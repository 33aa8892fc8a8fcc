import MatterTestSupport

/// Interaction Model payloads that real implementations sent, with where each comes from. Facts only: the bytes.
enum CapturedMessages {
    /// ReadRequest an iPhone sent a device right after PASE (published in a device firmware's test suite,
    /// test_matter_im.c "apple_read"): 9 paths on endpoint 0 (the last a wildcard over cluster 0x0038),
    /// FabricFiltered false, InteractionModelRevision 12.
    static let appleReadRequest = hex(
        """
        15 36 00 17 24 02 00 24 03 30 24 04 04 18 17 24 02 00 24 03 30 24 04 00 18 17 24 02
        00 24 03 30 24 04 01 18 17 24 02 00 24 03 30 24 04 02 18 17 24 02 00 24 03 30 24 04
        03 18 17 24 02 00 24 03 30 24 04 0c 18 17 24 02 00 24 03 28 24 04 02 18 17 24 02 00
        24 03 28 24 04 04 18 17 24 02 00 24 03 38 18 18 28 03 24 ff 0c 18
        """)

    /// InvokeRequest ArmFailSafe (endpoint 0, GeneralCommissioning 0x0030, command 0x00, ExpiryLengthSeconds 60,
    /// Breadcrumb 3) as an iPhone sent it (same source, "apple_armfailsafe"), revision 12.
    static let appleArmFailSafe = hex(
        """
        15 28 00 28 01 36 02 15 37 00 24 00 00 24 01 30 24 02 00 18 35 01 24 00 3c 24 01 03
        18 18 18 24 ff 0c 18
        """)

    /// InvokeRequest from rs-matter's tests: endpoint 0, cluster 49, command 12, fields {0: 5}; no revision field.
    static let rsMatterInvoke = hex(
        """
        15 28 00 28 01 36 02 15 37 00 24 00 00 24 01 31 24 02 0c 18 35 01 24 00 05 18 18 18 18
        """)

    /// ReadRequest chip-tool sent during commissioning (matter.js SecureSessionTest, decrypted): 8 paths, the first
    /// and last with a wildcard endpoint; FabricFiltered true; revision 1.
    static let chipToolReadRequest = hex(
        """
        15 36 00 17 24 03 31 25 04 fc ff 18 17 24 02 00 24 03 30 24 04 00 18 17 24 02 00 24
        03 30 24 04 01 18 17 24 02 00 24 03 30 24 04 02 18 17 24 02 00 24 03 30 24 04 03 18
        17 24 02 00 24 03 28 24 04 02 18 17 24 02 00 24 03 28 24 04 04 18 17 24 03 31 24 04
        03 18 18 29 03 24 ff 01 18
        """)

    /// The ReportData answering it (matter.js SecureSessionTest, MESSAGE.payload): 8 AttributeDataIBs over clusters
    /// 0x0031, 0x0028 and 0x0030 of endpoint 0, SuppressResponse true, revision 1.
    static let chipToolReportData = hex(
        """
        15 36 01 15 35 01 26 00 79 9a c6 0c 37 01 24 02 00 24 03 31 24 04 03 18 24 02 14 18
        18 15 35 01 26 00 b7 71 f3 2f 37 01 24 02 00 24 03 28 24 04 04 18 25 02 01 80 18 18
        15 35 01 26 00 b7 71 f3 2f 37 01 24 02 00 24 03 28 24 04 02 18 25 02 f1 ff 18 18 15
        35 01 26 00 dd ad 82 d6 37 01 24 02 00 24 03 30 24 04 03 18 24 02 02 18 18 15 35 01
        26 00 dd ad 82 d6 37 01 24 02 00 24 03 30 24 04 02 18 24 02 00 18 18 15 35 01 26 00
        dd ad 82 d6 37 01 24 02 00 24 03 30 24 04 01 18 35 02 24 00 3c 18 18 18 15 35 01 26
        00 dd ad 82 d6 37 01 24 02 00 24 03 30 24 04 00 18 24 02 00 18 18 15 35 01 26 00 79
        9a c6 0c 37 01 24 02 00 24 03 31 25 04 fc ff 18 24 02 01 18 18 18 29 04 24 ff 01 18
        """)

    /// ReportData from a chip-tool lighting device (matter.js AttributeDataDecoderTest): one AttributeDataIB,
    /// data version 2020087125, endpoint 0, cluster 0x0028, attribute 9, value 1; SuppressResponse; revision 1.
    static let lightingReportData = hex(
        """
        15 36 01 15 35 01 26 00 55 15 68 78 37 01 24 02 00 24 03 28 24 04 09 18 24 02 01 18
        18 18 29 04 24 ff 01 18
        """)

    /// InvokeResponse to AddTrustedRootCertificate (matter.js CryptoTest PLAIN_DATA_2 after its payload header):
    /// a CommandStatusIB SUCCESS for endpoint 0, cluster 0x003E, command 0x0B; revision 1.
    static let addTrustedRootResponse = hex(
        """
        15 28 00 36 01 15 35 01 37 00 24 00 00 24 01 3e 24 02 0b 18 35 01 24 00 00 18 18 18
        18 24 ff 01 18
        """)
}
