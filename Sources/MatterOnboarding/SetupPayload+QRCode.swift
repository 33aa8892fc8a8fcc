import MatterTLV

// Matter Core §5.1.3 QR Code: "MT:" followed by the base-38 encoding of packed fields and optional TLV data.
enum QRCodeFormat {
    static let prefix = "MT:"
    /// Field widths in bits, in order (§5.1.3, Table 38); 88 bits = 11 bytes.
    static let versionBits = 3, vendorIDBits = 16, productIDBits = 16, flowBits = 2
    static let capabilitiesBits = 8, discriminatorBits = 12, passcodeBits = 27, paddingBits = 4
    static let packedByteCount = 11
}

extension SetupPayload {
    public init(qrCode: String) throws(OnboardingError) {
        let trimmed = qrCode.trimmingWhitespace()
        guard trimmed.hasPrefix(QRCodeFormat.prefix) else { throw .unrecognizedFormat }
        guard trimmed.utf8.count <= OnboardingLimits.maximumQRCodeCharacters else {
            throw .qrCodeTooLong(trimmed.utf8.count)
        }
        let encoded = trimmed.dropFirst(QRCodeFormat.prefix.count)
        guard !encoded.contains("*") else { throw .multiplePayloads }
        let bytes = try Base38.decode(encoded)
        guard bytes.count >= QRCodeFormat.packedByteCount else { throw .payloadTooShort(bytes: bytes.count) }

        var reader = PayloadBitReader(bytes)
        let version = UInt8(reader.read(bits: QRCodeFormat.versionBits))
        let vendorID = UInt16(reader.read(bits: QRCodeFormat.vendorIDBits))
        let productID = UInt16(reader.read(bits: QRCodeFormat.productIDBits))
        let flowValue = UInt8(reader.read(bits: QRCodeFormat.flowBits))
        let capabilities = UInt8(reader.read(bits: QRCodeFormat.capabilitiesBits))
        let discriminator = UInt16(reader.read(bits: QRCodeFormat.discriminatorBits))
        let passcode = UInt32(reader.read(bits: QRCodeFormat.passcodeBits))
        // The 4 padding bits are ignored, as a lenient reader should.

        guard version == 0 else { throw .unsupportedVersion(version) }
        guard let flow = CommissioningFlow(rawValue: flowValue) else { throw .reservedCommissioningFlow(flowValue) }
        self.init(
            version: version, vendorID: vendorID, productID: productID, commissioningFlow: flow,
            discoveryCapabilities: DiscoveryCapabilities(rawValue: capabilities),
            discriminator: .long(discriminator), passcode: passcode,
            extensions: try SetupPayloadExtension.decode(Array(bytes[QRCodeFormat.packedByteCount...]))
        )
        try validate()
    }

    /// The QR code payload text (`MT:…`). A manual code's short discriminator cannot go into a QR code.
    public func qrCode() throws(OnboardingError) -> String {
        try validate()
        guard case .long(let discriminator) = discriminator else {
            throw .discriminatorOutOfRange(Int(self.discriminator.value), short: true)
        }
        var writer = PayloadBitWriter(byteCount: QRCodeFormat.packedByteCount)
        writer.append(UInt64(version), bits: QRCodeFormat.versionBits)
        writer.append(UInt64(vendorID ?? 0), bits: QRCodeFormat.vendorIDBits)
        writer.append(UInt64(productID ?? 0), bits: QRCodeFormat.productIDBits)
        writer.append(UInt64(commissioningFlow.rawValue), bits: QRCodeFormat.flowBits)
        writer.append(UInt64(discoveryCapabilities?.rawValue ?? 0), bits: QRCodeFormat.capabilitiesBits)
        writer.append(UInt64(discriminator), bits: QRCodeFormat.discriminatorBits)
        writer.append(UInt64(passcode), bits: QRCodeFormat.passcodeBits)
        writer.append(0, bits: QRCodeFormat.paddingBits)
        return QRCodeFormat.prefix + Base38.encode(writer.bytes + SetupPayloadExtension.encode(extensions))
    }
}
