// Matter Core §5.4.2.5.6 Matter BLE service data: what a commissionable device advertises under service UUID 0xFFF6.

/// The service data a Matter device advertises over BLE while it can be commissioned (8 bytes under the 16-bit service
/// UUID 0xFFF6): the opcode, the 12-bit discriminator with the advertisement version, the vendor and product IDs, and
/// flags. A commissioner finds the device of an onboarding payload by its discriminator.
public struct MatterBLEAdvertisement: Sendable, Hashable {
    /// The service UUID the data is advertised under, and the GATT service of the BTP characteristics.
    public static let serviceUUID: UInt16 = 0xFFF6
    /// C1: the central writes BTP packets here.
    public static let c1 = "18EE2EF5-263D-4559-959F-4F9C429F9D11"
    /// C2: the peripheral indicates BTP packets here.
    public static let c2 = "18EE2EF5-263D-4559-959F-4F9C429F9D12"
    /// C3: additional commissioning data (TLV), readable when the advertisement's flag says so.
    public static let c3 = "64630238-8772-45F2-B87D-748A83218F04"
    /// The opcode of a device open for commissioning.
    public static let commissionableOpcode: UInt8 = 0x00

    public var opcode: UInt8
    /// 0 to 4095.
    public var discriminator: UInt16
    /// The advertisement format's version, 0 today.
    public var version: UInt8
    public var vendorID: UInt16
    public var productID: UInt16
    /// C3 carries additional data.
    public var hasAdditionalData: Bool
    /// An extended announcement: the device advertises beyond its commissioning window (§5.4.2.5.3).
    public var isExtendedAnnouncement: Bool

    public init(
        opcode: UInt8 = MatterBLEAdvertisement.commissionableOpcode, discriminator: UInt16, version: UInt8 = 0,
        vendorID: UInt16, productID: UInt16, hasAdditionalData: Bool = false, isExtendedAnnouncement: Bool = false
    ) {
        self.opcode = opcode
        self.discriminator = discriminator & 0x0FFF
        self.version = version & 0x0F
        self.vendorID = vendorID
        self.productID = productID
        self.hasAdditionalData = hasAdditionalData
        self.isExtendedAnnouncement = isExtendedAnnouncement
    }

    /// Reads the service data; data shorter than 8 bytes is no Matter advertisement (later bytes are a newer
    /// format's and are left alone).
    public init?(serviceData bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        let discriminatorAndVersion = UInt16(bytes[1]) | UInt16(bytes[2]) << 8
        self.init(
            opcode: bytes[0], discriminator: discriminatorAndVersion & 0x0FFF,
            version: UInt8(discriminatorAndVersion >> 12), vendorID: UInt16(bytes[3]) | UInt16(bytes[4]) << 8,
            productID: UInt16(bytes[5]) | UInt16(bytes[6]) << 8, hasAdditionalData: bytes[7] & 0x01 != 0,
            isExtendedAnnouncement: bytes[7] & 0x02 != 0)
    }

    public var serviceData: [UInt8] {
        let discriminatorAndVersion = discriminator | UInt16(version) << 12
        return [
            opcode, UInt8(discriminatorAndVersion & 0xFF), UInt8(discriminatorAndVersion >> 8),
            UInt8(vendorID & 0xFF), UInt8(vendorID >> 8), UInt8(productID & 0xFF), UInt8(productID >> 8),
            (hasAdditionalData ? 0x01 : 0) | (isExtendedAnnouncement ? 0x02 : 0),
        ]
    }

    /// Whether this is the device of a payload with this long (12-bit) discriminator.
    public func matches(longDiscriminator: UInt16) -> Bool {
        opcode == Self.commissionableOpcode && discriminator == longDiscriminator & 0x0FFF
    }

    /// Whether this is the device of a manual code's short discriminator: the long one's upper 4 bits.
    public func matches(shortDiscriminator: UInt8) -> Bool {
        opcode == Self.commissionableOpcode && discriminator >> 8 == UInt16(shortDiscriminator & 0x0F)
    }
}
