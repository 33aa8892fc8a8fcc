/// Upper-case hex with every digit of the type (`00FF`, `0000000000000005`): how IDs are printed everywhere in the tool.
func paddedHex<Value: FixedWidthInteger>(_ value: Value) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, Value.bitWidth / 4 - digits.count)) + digits
}
