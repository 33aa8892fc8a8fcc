// Matter Core §5.1.4.1: the manual pairing code ends with a Verhoeff check digit (dihedral group D5),
// which catches every single-digit error and every transposition of adjacent digits.
enum Verhoeff {
    private static let multiplication: [[UInt8]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ]
    private static let permutation: [[UInt8]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
        [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
        [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
        [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
        [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ]
    private static let inverse: [UInt8] = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]

    /// The check digit to append to `digits` (each 0…9).
    static func checkDigit(for digits: [UInt8]) -> UInt8 {
        inverse[Int(checksum(digits, firstPosition: 1))]
    }

    /// Whether `digits`, whose last element is the check digit, are consistent.
    static func isValid(_ digits: [UInt8]) -> Bool {
        checksum(digits, firstPosition: 0) == 0
    }

    private static func checksum(_ digits: [UInt8], firstPosition: Int) -> UInt8 {
        var check: UInt8 = 0
        for (position, digit) in digits.reversed().enumerated() {
            check = multiplication[Int(check)][Int(permutation[(position + firstPosition) % 8][Int(digit)])]
        }
        return check
    }
}
