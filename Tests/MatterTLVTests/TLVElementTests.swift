import MatterTLV
import Testing

@Suite struct TLVElementTests {
    @Test func contextSubscriptFindsTheFirstMatchingMember() {
        let structure = TLVElement(
            .structure([
                TLVElement(tag: .commonProfile(1), .unsigned(9)),
                TLVElement(tag: .context(1), .unsigned(1)),
                TLVElement(tag: .context(1), .unsigned(2)),
            ]))
        #expect(structure[context: 1] == TLVElement(tag: .context(1), .unsigned(1)))
        #expect(structure[context: 2] == nil)
        let list = TLVElement(.list([TLVElement(.null), TLVElement(tag: .context(3), .bool(true))]))
        #expect(list[context: 3]?.value == .bool(true))
    }

    @Test func contextSubscriptIsNilOutsideStructuresAndLists() {
        #expect(TLVElement(.array([TLVElement(.unsigned(1))]))[context: 0] == nil)
        #expect(TLVElement(tag: .context(1), .unsigned(1))[context: 1] == nil)
    }
}
