/// Test vectors are written as hex strings, as the specifications and RFCs print them.
extension Array where Element == UInt8 {
    init(hex: String) {
        let digits = hex.filter { !$0.isWhitespace }.map { UInt8(String($0), radix: 16)! }
        precondition(digits.count.isMultiple(of: 2), "odd number of hex digits in a test vector")
        self = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    var hex: String { map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
}
