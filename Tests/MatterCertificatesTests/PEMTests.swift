import MatterCertificates
import Testing

@Suite struct PEMTests {
    // RFC 4648 §10 test vectors.
    @Test(arguments: [
        ("", ""), ("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo"), ("Zm9vYg==", "foob"), ("Zm9vYmE=", "fooba"),
        ("Zm9vYmFy", "foobar"),
    ])
    func decodesRFC4648Vectors(encoded: String, decoded: String) throws {
        let text = "-----BEGIN DATA-----\n\(encoded)\n-----END DATA-----\n"
        #expect(try PEM.blocks(labeled: "DATA", in: text) == [Array(decoded.utf8)])
    }

    @Test func readsEveryCertificateBlockAndSkipsOtherLabels() throws {
        let text = """
            Bag Attributes: ignored
            -----BEGIN EC PRIVATE KEY-----
            AAAA
            -----END EC PRIVATE KEY-----
            -----BEGIN CERTIFICATE-----\r
            \(base64(CHIPAttestationVectors.paa))\r
            -----END CERTIFICATE-----\r
            -----BEGIN CERTIFICATE-----
            \(base64(TestPAA.noVIDDER))
            -----END CERTIFICATE-----
            """
        #expect(try PEM.blocks(labeled: "CERTIFICATE", in: text) == [CHIPAttestationVectors.paa, TestPAA.noVIDDER])
    }

    @Test(arguments: [
        ("Zg=", "base64 body of 3 characters is not a multiple of 4"),
        ("Z===", "more than two base64 padding characters"),
        ("Zh==", "non-zero bits before base64 padding"),
        ("Zm9*", "character 0x2A at 3 is not base64"),
    ])
    func rejectsMalformedBase64(encoded: String, reason: String) {
        #expect(throws: CertificateError.invalidField("PEM", reason: reason)) {
            try PEM.blocks(labeled: "DATA", in: "-----BEGIN DATA-----\n\(encoded)\n-----END DATA-----")
        }
    }

    @Test func rejectsUnterminatedBlock() {
        #expect(throws: CertificateError.invalidField("PEM", reason: "-----BEGIN DATA----- has no -----END DATA-----"))
        {
            try PEM.blocks(labeled: "DATA", in: "-----BEGIN DATA-----\nZm9v\n")
        }
    }

    /// Base64 written by hand from RFC 4648 §4, for building PEM inputs (64 characters a line).
    private func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var text = ""
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = Array(bytes[start..<min(start + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for index in 0..<4 {
                text.append(index <= chunk.count ? alphabet[value >> (18 - 6 * index) & 0x3F] : "=")
            }
        }
        return stride(from: 0, to: text.count, by: 64).map { offset in
            String(text.dropFirst(offset).prefix(64))
        }.joined(separator: "\n")
    }
}
