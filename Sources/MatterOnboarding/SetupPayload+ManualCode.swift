// Matter Core §5.1.4 Manual Pairing Code: decimal chunks and a Verhoeff check digit.
//   digit 1         bit 2: vendor and product IDs present; bits 1…0: discriminator bits 3…2
//   digits 2–6      bits 15…14: discriminator bits 1…0; bits 13…0: passcode bits 13…0
//   digits 7–10     passcode bits 26…14
//   digits 11–20    vendor ID and product ID, 5 digits each (21-digit form only)
//   last digit      Verhoeff check digit
enum ManualCodeFormat {
    static let shortLength = 11
    static let longLength = 21
    static let vendorAndProductFlag: UInt32 = 1 << 2
}

extension SetupPayload {
    public init(manualCode: String) throws(OnboardingError) {
        var digits: [UInt8] = []
        for character in manualCode.trimmingWhitespace().utf8
        where character != UInt8(ascii: "-") && character != UInt8(ascii: " ") {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) else { throw .unrecognizedFormat }
            digits.append(character - UInt8(ascii: "0"))
        }
        guard digits.count == ManualCodeFormat.shortLength || digits.count == ManualCodeFormat.longLength else {
            throw .manualCodeLength(digits.count)
        }
        let expected = Verhoeff.checkDigit(for: Array(digits.dropLast()))
        guard expected == digits.last else {
            throw .checkDigitMismatch(expected: expected, found: digits[digits.count - 1])
        }
        guard digits[0] <= 7 else { throw .reservedManualCodeDigit(digits[0]) }

        func number(_ range: Range<Int>) -> UInt32 {
            digits[range].reduce(0) { $0 * 10 + UInt32($1) }
        }
        let first = number(0..<1), second = number(1..<6), third = number(6..<10)
        let hasVendorAndProduct = first & ManualCodeFormat.vendorAndProductFlag != 0
        guard hasVendorAndProduct == (digits.count == ManualCodeFormat.longLength) else {
            throw .vendorAndProductFlagMismatch(digits: digits.count)
        }
        let shortDiscriminator = UInt8((first & 0b11) << 2 | second >> 14)
        let passcode = third << 14 | second & 0x3FFF
        var vendorID: UInt16?
        var productID: UInt16?
        if hasVendorAndProduct {
            let vendor = number(10..<15), product = number(15..<20)
            guard vendor <= UInt16.max, product <= UInt16.max else {
                throw .invalidExtension("vendor ID \(vendor) or product ID \(product) does not fit 16 bits")
            }
            vendorID = UInt16(vendor)
            productID = UInt16(product)
        }
        self.init(
            vendorID: vendorID, productID: productID,
            commissioningFlow: hasVendorAndProduct ? .custom : .standard,
            discoveryCapabilities: nil, discriminator: .short(shortDiscriminator), passcode: passcode
        )
        try validate()
    }

    /// The manual pairing code: 11 digits for the standard flow, 21 (with vendor and product ID) otherwise.
    public func manualCode() throws(OnboardingError) -> String {
        try validate()
        let includesVendorAndProduct = commissioningFlow != .standard
        let short = UInt32(discriminator.shortValue)
        var first = short >> 2
        if includesVendorAndProduct { first |= ManualCodeFormat.vendorAndProductFlag }
        let second = (short & 0b11) << 14 | passcode & 0x3FFF
        let third = passcode >> 14
        var text = String(first) + Self.padded(second, width: 5) + Self.padded(third, width: 4)
        if includesVendorAndProduct {
            guard let vendorID, let productID else { throw .missingVendorOrProduct }
            text += Self.padded(UInt32(vendorID), width: 5) + Self.padded(UInt32(productID), width: 5)
        }
        let digits = text.utf8.map { $0 - UInt8(ascii: "0") }
        return text + String(Verhoeff.checkDigit(for: digits))
    }

    private static func padded(_ value: UInt32, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
