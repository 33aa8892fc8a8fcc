import MatterTLV

// Matter Core §5.1.1 Onboarding payload: what a device's QR code or manual pairing code tells a commissioner.
public struct SetupPayload: Hashable, Sendable {
    /// QR code version; only 0 is defined.
    public var version: UInt8
    /// Absent in an 11-digit manual code.
    public var vendorID: UInt16?
    /// Absent in an 11-digit manual code.
    public var productID: UInt16?
    public var commissioningFlow: CommissioningFlow
    /// Absent in a manual code: the commissioner must try every transport.
    public var discoveryCapabilities: DiscoveryCapabilities?
    public var discriminator: Discriminator
    public var passcode: UInt32
    /// Optional TLV data of a QR code (§5.1.3.2), in the order found.
    public var extensions: [SetupPayloadExtension]

    public init(
        version: UInt8 = 0,
        vendorID: UInt16?,
        productID: UInt16?,
        commissioningFlow: CommissioningFlow = .standard,
        discoveryCapabilities: DiscoveryCapabilities?,
        discriminator: Discriminator,
        passcode: UInt32,
        extensions: [SetupPayloadExtension] = []
    ) {
        self.version = version
        self.vendorID = vendorID
        self.productID = productID
        self.commissioningFlow = commissioningFlow
        self.discoveryCapabilities = discoveryCapabilities
        self.discriminator = discriminator
        self.passcode = passcode
        self.extensions = extensions
    }

    /// Parses either form: a QR code payload (`MT:…`) or a manual pairing code (11 or 21 digits,
    /// dashes and spaces ignored, as printed on labels: `3497-011-2332`).
    public init(parsing code: String) throws(OnboardingError) {
        let trimmed = code.trimmingWhitespace()
        if trimmed.hasPrefix(QRCodeFormat.prefix) {
            self = try SetupPayload(qrCode: trimmed)
        } else if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == " ") }) {
            self = try SetupPayload(manualCode: trimmed)
        } else {
            throw .unrecognizedFormat
        }
    }

    /// Checks the rules that both code forms share (§5.1.1.5–§5.1.1.6).
    public func validate() throws(OnboardingError) {
        guard version == 0 else { throw .unsupportedVersion(version) }
        try Passcode.validate(passcode)
        switch discriminator {
        case .long(let value):
            guard value <= OnboardingLimits.maximumLongDiscriminator else {
                throw .discriminatorOutOfRange(Int(value), short: false)
            }
        case .short(let value):
            guard value <= OnboardingLimits.maximumShortDiscriminator else {
                throw .discriminatorOutOfRange(Int(value), short: true)
            }
        }
    }

    /// The serial number from the optional data, when the device put one there.
    public var serialNumber: String? {
        for entry in extensions where entry.tag == SetupPayloadExtension.serialNumberTag {
            switch entry.value {
            case .utf8(let text): return text
            case .unsigned(let number): return String(number)
            default: continue
            }
        }
        return nil
    }
}

/// Matter Core §5.1.1.3 Custom Flow field.
public enum CommissioningFlow: UInt8, Hashable, Sendable, CaseIterable {
    /// The device is commissionable as soon as it is powered.
    case standard = 0
    /// The user must act on the device (press a button) before it is commissionable.
    case userIntent = 1
    /// The vendor's own instructions come first (vendor ID and product ID tell where).
    case custom = 2

    public var name: String {
        switch self {
        case .standard: "standard"
        case .userIntent: "user-intent"
        case .custom: "custom"
        }
    }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

/// Matter Core §5.1.1.4 Discovery Capabilities Bitmask.
public struct DiscoveryCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let softAP = DiscoveryCapabilities(rawValue: 1 << 0)
    public static let ble = DiscoveryCapabilities(rawValue: 1 << 1)
    public static let onNetwork = DiscoveryCapabilities(rawValue: 1 << 2)
    /// Wi-Fi Public Action Frame, added in Matter 1.4.
    public static let wiFiPAF = DiscoveryCapabilities(rawValue: 1 << 3)

    /// The names used on the command line and in JSON, in bit order.
    public static let named: [(name: String, capability: DiscoveryCapabilities)] = [
        ("soft-ap", .softAP), ("ble", .ble), ("on-network", .onNetwork), ("wifi-paf", .wiFiPAF),
    ]

    public var names: [String] {
        var names = Self.named.filter { contains($0.capability) }.map(\.name)
        let unknownBits = rawValue & ~Self.named.reduce(0) { $0 | $1.capability.rawValue }
        if unknownBits != 0 { names.append("reserved-bits-0x\(String(unknownBits, radix: 16))") }
        return names
    }
}

/// Matter Core §5.1.1.5: a QR code carries all 12 bits; a manual code only the upper 4.
public enum Discriminator: Hashable, Sendable {
    case long(UInt16)
    case short(UInt8)

    /// The 4-bit form that every code carries, used to match a device found by discovery.
    public var shortValue: UInt8 {
        switch self {
        case .long(let value): UInt8(truncatingIfNeeded: value >> 8)
        case .short(let value): value
        }
    }

    public var isShort: Bool {
        if case .short = self { return true }
        return false
    }

    public var value: UInt16 {
        switch self {
        case .long(let value): value
        case .short(let value): UInt16(value)
        }
    }
}

/// Matter Core §5.1.1.6 Setup Passcode rules.
public enum Passcode {
    /// Values a device must never use: trivially guessable.
    public static let forbidden: Set<UInt32> = [
        0, 11_111_111, 22_222_222, 33_333_333, 44_444_444, 55_555_555,
        66_666_666, 77_777_777, 88_888_888, 99_999_999, 12_345_678, 87_654_321,
    ]

    public static func validate(_ passcode: UInt32) throws(OnboardingError) {
        guard !forbidden.contains(passcode) else { throw .forbiddenPasscode(passcode) }
        guard OnboardingLimits.passcodeRange.contains(passcode) else { throw .passcodeOutOfRange(passcode) }
    }

    /// Eight digits with leading zeros, as printed on labels.
    public static func formatted(_ passcode: UInt32) -> String {
        let digits = String(passcode)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
