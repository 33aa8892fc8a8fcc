// Matter Core §4.3.1.4–§4.3.1.9 (commissionable) and §4.3.4 (common) TXT keys, read leniently:
// a key whose value does not parse or is out of range is recorded as absent, never fatal.
public struct MatterTXTRecord: Hashable, Sendable {
    /// Every entry as received, including keys this type does not interpret.
    public var entries: [TXTEntry]

    public init(entries: [TXTEntry]) {
        self.entries = entries
    }

    /// The value of a key (keys compare case-insensitively, RFC 6763 §6.4); nil when absent or boolean.
    public subscript(key: String) -> String? {
        entries.first { DNSName.fold($0.key) == DNSName.fold(key) }?.value
    }

    // MARK: Commissionable keys

    /// `D`: the 12-bit long discriminator.
    public var longDiscriminator: UInt16? { number("D", maximum: 0xFFF) }
    /// `CM`: commissioning mode (0 not in commissioning mode, 1 basic, 2 enhanced window, 3 joint fabric).
    public var commissioningMode: UInt8? { number("CM", maximum: 3) }
    /// `VP`: vendor ID, before the "+".
    public var vendorID: UInt16? { vendorProduct(at: 0) }
    /// `VP`: product ID, after the "+"; absent when VP carries only the vendor.
    public var productID: UInt16? { vendorProduct(at: 1) }
    /// `DT`: primary device type.
    public var deviceType: UInt32? { number("DT", maximum: UInt32.max) }
    /// `DN`: user-visible device name.
    public var deviceName: String? { self["DN"] }
    /// `RI`: rotating device identifier, in hex.
    public var rotatingID: String? { self["RI"] }
    /// `PH`: pairing hint bitmap.
    public var pairingHint: UInt32? { number("PH", maximum: UInt32.max) }
    /// `PI`: pairing instruction; absent when empty.
    public var pairingInstruction: String? { self["PI"].flatMap { $0.isEmpty ? nil : $0 } }

    // MARK: Common keys (§4.3.4)

    /// `SII`: session idle interval, at most one hour.
    public var sessionIdleInterval: Duration? {
        number("SII", maximum: Self.maximumIntervalMilliseconds).map { .milliseconds($0) }
    }
    /// `SAI`: session active interval, at most one hour.
    public var sessionActiveInterval: Duration? {
        number("SAI", maximum: Self.maximumIntervalMilliseconds).map { .milliseconds($0) }
    }
    /// `SAT`: session active threshold, at most 65535 ms.
    public var sessionActiveThreshold: Duration? { number("SAT", maximum: UInt16.max).map { .milliseconds($0) } }
    /// `T`: TCP support bitmap (bit 1 TCP client, bit 2 TCP server); some devices send the older `T=1`.
    public var tcpSupport: UInt8? { number("T", maximum: UInt8.max) }
    /// `ICD`: 1 when the node is a long idle time intermittently connected device.
    public var isLongIdleTimeICD: Bool? { number("ICD", maximum: UInt8(1)).map { $0 == 1 } }

    /// §4.3.4: SII and SAI are capped at one hour.
    private static let maximumIntervalMilliseconds: UInt32 = 3_600_000

    private func number<Value: FixedWidthInteger>(_ key: String, maximum: Value) -> Value? {
        guard let text = self[key], text.allSatisfy(\.isASCII), let value = Value(text), value <= maximum else {
            return nil
        }
        return value
    }

    private func vendorProduct(at index: Int) -> UInt16? {
        guard let parts = self["VP"]?.split(separator: "+", omittingEmptySubsequences: false),
            parts.count <= 2, index < parts.count, parts[index].allSatisfy(\.isASCII)
        else { return nil }
        return UInt16(parts[index])
    }
}
