import Testing

@testable import MatterBTP

@Suite struct MatterBLEAdvertisementTests {
    /// connectedhomeip's example device (discriminator 3840, vendor 0xFFF1, product 0x8001) as its
    /// ChipBLEDeviceIdentificationInfo lays it out: opcode, discriminator and version little-endian, vendor, product,
    /// flags.
    @Test func readsAndWritesTheServiceData() throws {
        let bytes: [UInt8] = [0x00, 0x00, 0x0F, 0xF1, 0xFF, 0x01, 0x80, 0x00]
        let advertisement = try #require(MatterBLEAdvertisement(serviceData: bytes))
        #expect(advertisement.discriminator == 3840)
        #expect(advertisement.version == 0)
        #expect(advertisement.vendorID == 0xFFF1)
        #expect(advertisement.productID == 0x8001)
        #expect(!advertisement.hasAdditionalData)
        #expect(advertisement.serviceData == bytes)
        // Version in the high nibble, flags in the last byte.
        let flagged = MatterBLEAdvertisement(
            discriminator: 0xABC, version: 1, vendorID: 1, productID: 2, hasAdditionalData: true,
            isExtendedAnnouncement: true)
        #expect(flagged.serviceData == [0x00, 0xBC, 0x1A, 0x01, 0x00, 0x02, 0x00, 0x03])
        #expect(MatterBLEAdvertisement(serviceData: flagged.serviceData) == flagged)
        #expect(MatterBLEAdvertisement(serviceData: [0x00, 0x00, 0x0F]) == nil)
    }

    @Test func matchesThePayloadsDiscriminator() {
        let device = MatterBLEAdvertisement(discriminator: 3840, vendorID: 0xFFF1, productID: 0x8001)
        #expect(device.matches(longDiscriminator: 3840))
        #expect(!device.matches(longDiscriminator: 3841))
        #expect(device.matches(shortDiscriminator: 15))
        #expect(!device.matches(shortDiscriminator: 14))
        var notCommissionable = device
        notCommissionable.opcode = 0x01
        #expect(!notCommissionable.matches(longDiscriminator: 3840))
    }
}
