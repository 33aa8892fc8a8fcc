import HomeHub
import HomeRecords
import MatterTLV
import Testing

@testable import HomeCommandLine

@Suite struct JSONValueTLVTests {
    @Test func attributeValuesBecomeJSON() {
        let cases: [(TLVValue, String)] = [
            (.bool(true), "true"),
            (.unsigned(254), "254"),
            (.signed(-40), "-40"),
            (.float(0.5), "0.5"),
            (.double(.nan), "null"),
            (.double(-.infinity), "null"),
            (.utf8("say \"hi\"\n"), #""say \"hi\"\n""#),
            (.bytes([0x0A, 0xFF]), #""0x0AFF""#),
            (.bytes([]), #""0x""#),
            (.null, "null"),
            (.array([TLVElement(.unsigned(1)), TLVElement(.null)]), "[1,null]"),
            (
                .structure([TLVElement(tag: .context(0), .unsigned(256)), TLVElement(tag: .context(1), .unsigned(3))]),
                #"{"0":256,"1":3}"#
            ),
            (.array([TLVElement(.structure([TLVElement(tag: .context(2), .utf8("x"))]))]), #"[{"2":"x"}]"#),
        ]
        for (value, json) in cases {
            #expect(JSONValue(TLVElement(value)).rendered == json, "\(value)")
        }
    }
}
