import MatterTLV

/// Why an onboarding code was refused. Every message says what is wrong in one line.
public enum OnboardingError: Error, Hashable, Sendable, CustomStringConvertible {
    case unrecognizedFormat
    case invalidBase38Character(Character, position: Int)
    case invalidBase38Length(Int)
    case invalidBase38Chunk(position: Int)
    case qrCodeTooLong(Int)
    case multiplePayloads
    case payloadTooShort(bytes: Int)
    case unsupportedVersion(UInt8)
    case reservedCommissioningFlow(UInt8)
    case passcodeOutOfRange(UInt32)
    case forbiddenPasscode(UInt32)
    case discriminatorOutOfRange(Int, short: Bool)
    case invalidExtensionData(TLVError)
    case invalidExtension(String)
    case manualCodeLength(Int)
    case checkDigitMismatch(expected: UInt8, found: UInt8)
    case reservedManualCodeDigit(UInt8)
    case vendorAndProductFlagMismatch(digits: Int)
    case missingVendorOrProduct

    public var description: String {
        switch self {
        case .unrecognizedFormat:
            "not an onboarding code: expected an 'MT:' QR code payload or an 11- or 21-digit manual pairing code"
        case .invalidBase38Character(let character, let position):
            "invalid character '\(character)' at position \(position) of the QR code payload (allowed: 0-9, A-Z, '-', '.')"
        case .invalidBase38Length(let length):
            "QR code payload has \(length) characters after 'MT:'; a base-38 payload cannot have that length"
        case .invalidBase38Chunk(let position):
            "QR code payload chunk at position \(position) encodes a value too large for its bytes"
        case .qrCodeTooLong(let length):
            "QR code payload has \(length) characters, more than any QR code holds"
        case .multiplePayloads:
            "QR codes holding several payloads ('*'-separated) are not supported yet"
        case .payloadTooShort(let bytes):
            "QR code payload holds \(bytes) bytes; at least 11 are needed"
        case .unsupportedVersion(let version):
            "unsupported payload version \(version) (only version 0 is defined)"
        case .reservedCommissioningFlow(let value):
            "commissioning flow \(value) is reserved"
        case .passcodeOutOfRange(let passcode):
            "passcode \(passcode) is out of range 1…99999998"
        case .forbiddenPasscode(let passcode):
            "passcode \(Passcode.formatted(passcode)) is not allowed"
        case .discriminatorOutOfRange(let value, let short):
            short
                ? "short discriminator \(value) is out of range 0…15" : "discriminator \(value) is out of range 0…4095"
        case .invalidExtensionData(let error):
            "QR code optional data is not valid TLV: \(error)"
        case .invalidExtension(let reason):
            "QR code optional data: \(reason)"
        case .manualCodeLength(let digits):
            "manual pairing code has \(digits) digits; it must have 11 or 21"
        case .checkDigitMismatch(let expected, let found):
            "check digit mismatch: the code ends in \(found), its digits give \(expected)"
        case .reservedManualCodeDigit(let digit):
            "manual pairing code cannot start with \(digit) (first digit is 0…7)"
        case .vendorAndProductFlagMismatch(let digits):
            digits == 11
                ? "11-digit manual pairing code claims a vendor and product ID, which only a 21-digit code holds"
                : "21-digit manual pairing code does not set its vendor-and-product flag"
        case .missingVendorOrProduct:
            "a non-standard commissioning flow needs the vendor ID and product ID"
        }
    }
}
