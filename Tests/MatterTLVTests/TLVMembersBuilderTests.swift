import MatterTLV
import Testing

@Suite struct TLVMembersBuilderTests {
    @Test func buildsMembersWithConditionsLoopsAndAbsentOptionals() {
        let absent: UInt8? = nil
        let includeFlag = true
        let value = TLVValue.structure {
            TLVElement.context(1, UInt16(5))
            TLVElement.context(2, absent)
            if includeFlag {
                TLVElement.context(3, true)
            } else {
                TLVElement.context(4, false)
            }
            for tag in UInt8(5)...6 {
                TLVElement.context(tag, "x")
            }
            TLVElement(tag: .commonProfile(1), .null)
        }
        #expect(
            value
                == .structure([
                    TLVElement(tag: .context(1), .unsigned(5)),
                    TLVElement(tag: .context(3), .bool(true)),
                    TLVElement(tag: .context(5), .utf8("x")),
                    TLVElement(tag: .context(6), .utf8("x")),
                    TLVElement(tag: .commonProfile(1), .null),
                ]))
    }
}
