import Testing

@testable import MatterOnboarding

@Suite struct VerhoeffTests {
    /// The textbook example: 236 gets check digit 3.
    @Test func computesTheTextbookCheckDigit() {
        #expect(Verhoeff.checkDigit(for: [2, 3, 6]) == 3)
        #expect(Verhoeff.isValid([2, 3, 6, 3]))
        #expect(!Verhoeff.isValid([2, 3, 6, 4]))
    }

    @Test func catchesEverySingleDigitErrorAndAdjacentTransposition() {
        let digits: [UInt8] = [3, 4, 9, 7, 0, 1, 1, 2, 3, 3]
        let valid = digits + [Verhoeff.checkDigit(for: digits)]
        #expect(Verhoeff.isValid(valid))
        for position in valid.indices {
            for replacement: UInt8 in 0...9 where replacement != valid[position] {
                var changed = valid
                changed[position] = replacement
                #expect(!Verhoeff.isValid(changed))
            }
        }
        for position in valid.indices.dropLast() where valid[position] != valid[position + 1] {
            var swapped = valid
            swapped.swapAt(position, position + 1)
            #expect(!Verhoeff.isValid(swapped))
        }
    }
}
