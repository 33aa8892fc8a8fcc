import Testing

@testable import HomeAPI

@Suite struct HomeNameTests {
    @Test func longNamesAreCutAtSixtyCodePointsNotGraphemesOrBytes() throws {
        // 31 × (e + COMBINING ACUTE ACCENT): 62 code points, 31 grapheme clusters, 93 UTF-8 bytes.
        let combining = String(repeating: "e\u{301}", count: 31)
        #expect(combining.count == 31)
        let cut = try HomeName.validated(combining, naming: "device")
        #expect(cut == String(repeating: "e\u{301}", count: 30))
        #expect(cut.unicodeScalars.count == 60)

        // 58 letters + MAN ZWJ WOMAN ZWJ GIRL: 63 code points but 59 grapheme clusters; the cut splits the family.
        let family = String(repeating: "a", count: 58) + "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        #expect(family.count == 59)
        let cutFamily = try HomeName.validated(family, naming: "device")
        #expect(
            Array(cutFamily.unicodeScalars)
                == Array((String(repeating: "a", count: 58) + "\u{1F468}\u{200D}").unicodeScalars))

        // 61 code points: one too many.
        let sixtyOne = String(repeating: "\u{1F600}", count: 61)
        #expect(try HomeName.validated(sixtyOne, naming: "device") == String(repeating: "\u{1F600}", count: 60))
    }

    @Test func namesOfSixtyCodePointsOrFewerAreKept() throws {
        // 60 precomposed é: 60 code points, 120 UTF-8 bytes, kept whole.
        let precomposed = String(repeating: "\u{E9}", count: 60)
        #expect(try HomeName.validated(precomposed, naming: "room") == precomposed)
        #expect(try HomeName.validated(" Hall ", naming: "room") == " Hall ")
    }

    @Test(arguments: ["", " ", "   \t", "\n", "\u{3000}", "\u{A0}\u{2003}"])
    func blankNamesAreInvalidArguments(_ name: String) {
        #expect {
            try HomeName.validated(name, naming: "device")
        } throws: { error in
            (error as? HomeError)?.code == .invalidArgument
        }
    }

    @Test func aNameBlankWithinItsFirstSixtyCodePointsIsInvalid() {
        let name = String(repeating: " ", count: 60) + "Lamp"
        #expect(throws: HomeError.self) { try HomeName.validated(name, naming: "device") }
    }
}
