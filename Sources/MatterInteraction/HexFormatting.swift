// How identifiers appear in descriptions and error messages.

/// "0x0006" for cluster, attribute, command and event IDs (4 digits, 8 for manufacturer-specific IDs).
func hex32(_ value: UInt32) -> String {
    "0x" + String(value, radix: 16, uppercase: true).leftPadded(to: value > 0xFFFF ? 8 : 4)
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
