import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct SemanticTagTests {
    /// Common Number (0x07) and Common Position (0x08) read as words; Row and Column carry their number in the label.
    @Test func standardTagsReadAsTheirNames() {
        #expect(SemanticTag(namespaceID: 0x07, tag: 2).description == "Number 2")
        #expect(SemanticTag(namespaceID: 0x07, tag: 2).tagName == "Two")
        #expect(SemanticTag(namespaceID: 0x08, tag: 0).description == "Left")
        #expect(SemanticTag(namespaceID: 0x08, tag: 4).description == "Middle")
        #expect(SemanticTag(namespaceID: 0x08, tag: 5, label: "1").description == "Row 1")
        #expect(SemanticTag(namespaceID: 0x08, tag: 6, label: "3").description == "Column 3")
        #expect(SemanticTag(namespaceID: 0x08, tag: 1, label: "Reading").description == "Right \"Reading\"")
        #expect(SemanticTag(namespaceID: 0x08, tag: 1).namespaceName == "Position")
    }

    /// A namespace or tag this API does not know, or a manufacturer's, prints as numbers (with its label): never a
    /// wrong name.
    @Test func unknownTagsPrintAsNumbers() {
        #expect(SemanticTag(namespaceID: 0x12, tag: 3).description == "namespace 0x12 tag 0x03")
        #expect(SemanticTag(namespaceID: 0x08, tag: 0x20).description == "namespace 0x08 tag 0x20")
        #expect(SemanticTag(namespaceID: 0x07, tag: 11).tagName == nil)
        let vendor = SemanticTag(manufacturerCode: 0xFFF1, namespaceID: 0x08, tag: 0, label: "Bed")
        #expect(vendor.description == "vendor 0xFFF1 namespace 0x08 tag 0x00 \"Bed\"")
        #expect(vendor.namespaceName == nil && vendor.tagName == nil)
    }
}
