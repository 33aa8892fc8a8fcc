import HomeRecords
import MatterTLV
import Testing

@testable import HomeHub

@Suite struct AttributeValueTextTests {
    @Test func rendersEachKindOnOneLine() {
        let cases: [(TLVValue, String)] = [
            (.bool(true), "true"),
            (.unsigned(254), "254"),
            (.signed(-40), "-40"),
            (.utf8("Circuit\"Matter\""), #""Circuit\"Matter\"""#),
            (.bytes([0x0A, 0xFF]), "0x0AFF"),
            (.bytes([]), "0x"),
            (.null, "null"),
            (.array([TLVElement(.unsigned(0)), TLVElement(.unsigned(1))]), "[0, 1]"),
            (
                .structure([TLVElement(tag: .context(0), .unsigned(22)), TLVElement(tag: .context(1), .unsigned(3))]),
                "{0: 22, 1: 3}"
            ),
            (.array([TLVElement(.structure([TLVElement(tag: .context(0), .utf8("a"))]))]), #"[{0: "a"}]"#),
        ]
        for (value, text) in cases {
            #expect(AttributeValueText.render(TLVElement(value)) == text)
        }
    }
}
