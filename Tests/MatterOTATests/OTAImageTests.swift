import MatterOTA
import Testing

/// OTA image files (Matter Core §11.21.2) as connectedhomeip's `ota_image_tool.py create` makes them: the two headers
/// below are what its logic (chip.tlv's writer, `struct.pack('<IQI', …)`) made of this payload — facts written in.
@Suite struct OTAImageTests {
    static let payload: [UInt8] = Array((0..<4).flatMap { _ in (0...255).map(UInt8.init) }) + Array("swift-home".utf8)
    /// `create -v 0xFFF1 -p 0x8000 -vn 2 -vs 2.0 -da sha256`.
    static let plainHeader = bytes(
        "1ef1ee1b57040000000000003d000000152500f1ff250100802402022c0303322e3025040a04240801300920ac285d5f69f13522b137f5ada531849c316e31f27584c6dde064a3f29484272b18"
    )
    /// The same with `-mi 1 -ma 1 -rn https://example.com/notes`.
    static let fullHeader = bytes(
        "1ef1ee1b79040000000000005f000000152500f1ff250100802402022c0303322e3025040a042405012406012c071968747470733a2f2f6578616d706c652e636f6d2f6e6f746573240801300920ac285d5f69f13522b137f5ada531849c316e31f27584c6dde064a3f29484272b18"
    )

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
        }
    }

    @Test func ourImagesAreTheToolsByteForByte() throws {
        let plain = try OTAImage(
            payload: Self.payload, vendorID: 0xFFF1, productID: 0x8000, softwareVersion: 2, softwareVersionString: "2.0"
        )
        #expect(plain.encoded == Self.plainHeader + Self.payload)
        let full = try OTAImage(
            payload: Self.payload, vendorID: 0xFFF1, productID: 0x8000, softwareVersion: 2,
            softwareVersionString: "2.0",
            minApplicableSoftwareVersion: 1, maxApplicableSoftwareVersion: 1,
            releaseNotesURL: "https://example.com/notes")
        #expect(full.encoded == Self.fullHeader + Self.payload)
    }

    @Test func theToolsFileIsReadInTwoPhases() throws {
        let file = Self.fullHeader + Self.payload
        // Phase 1: sixteen bytes say how much more to read.
        #expect(try OTAImageHeader.headerLength(of: file.prefix(16)) == Self.fullHeader.count)
        // Phase 2: the header alone, before any of the payload.
        let (totalSize, header) = try OTAImageHeader.parse(Array(file.prefix(Self.fullHeader.count)))
        #expect(totalSize == UInt64(file.count))
        #expect(header.vendorID == 0xFFF1 && header.productID == 0x8000)
        #expect(header.softwareVersion == 2 && header.softwareVersionString == "2.0")
        #expect(header.payloadSize == 1034 && header.digestType == .sha256 && header.digest.count == 32)
        #expect(header.minApplicableSoftwareVersion == 1 && header.maxApplicableSoftwareVersion == 1)
        #expect(header.releaseNotesURL == "https://example.com/notes")
        #expect(header.applies(toVersion: 1) && !header.applies(toVersion: 0) && !header.applies(toVersion: 2))
        let image = try OTAImage(parsing: file)
        #expect(image.payload == Self.payload)
        #expect(try OTAImage(parsing: Self.plainHeader + Self.payload).header.applies(toVersion: 0))
    }

    @Test func aFileThatIsNotWhatItsHeaderSaysIsRefused() {
        var altered = Self.plainHeader + Self.payload
        altered[altered.count - 1] ^= 0x01
        #expect(throws: OTAImageError.digestMismatch("the payload's SHA-256 digest is not the header's")) {
            try OTAImage(parsing: altered)
        }
        let cut = Array((Self.plainHeader + Self.payload).dropLast())
        #expect(throws: OTAImageError.truncated("the file is 1110 bytes, its header says 1111")) {
            try OTAImage(parsing: cut)
        }
        #expect(throws: OTAImageError.truncated("the header is 77 bytes, the file has 40")) {
            try OTAImageHeader.parse(Array(Self.plainHeader.prefix(40)))
        }
        var magic = Self.plainHeader
        magic[0] = 0x1F
        #expect(throws: OTAImageError.notAnOTAImage("its file identifier is 0x1BEEF11F, not 0x1BEEF11E")) {
            try OTAImageHeader.headerLength(of: magic)
        }
        // TotalSize one more than header and payload.
        var total = Self.plainHeader
        total[4] &+= 1
        #expect(throws: OTAImageError.self) { try OTAImageHeader.parse(total) }
        // A header claimed larger than any real one is refused before it is read.
        var huge = Self.plainHeader
        huge[14] = 0x01
        #expect(throws: OTAImageError.malformed("a header of 65597 bytes is more than 4096")) {
            try OTAImageHeader.headerLength(of: huge)
        }
    }

    @Test func headersTheToolWouldRefuseAreRefused() {
        #expect(throws: OTAImageError.malformed("a vendor and product ID of 0 name no product")) {
            try OTAImage(payload: [1], vendorID: 0, productID: 1, softwareVersion: 1, softwareVersionString: "1")
        }
        #expect(throws: OTAImageError.malformed("SoftwareVersionString is 1 to 64 characters")) {
            try OTAImage(payload: [1], vendorID: 1, productID: 1, softwareVersion: 1, softwareVersionString: "")
        }
        #expect(
            throws: OTAImageError.malformed("MaxApplicableSoftwareVersion 1 is below MinApplicableSoftwareVersion 2")
        ) {
            try OTAImage(
                payload: [1], vendorID: 1, productID: 1, softwareVersion: 3, softwareVersionString: "3",
                minApplicableSoftwareVersion: 2, maxApplicableSoftwareVersion: 1)
        }
        #expect(
            throws: OTAImageError.unsupported("SHA-512 digests are not checked here (SHA-256 and its truncations are)")
        ) {
            try OTAImage(
                payload: [1], vendorID: 1, productID: 1, softwareVersion: 1, softwareVersionString: "1",
                digestType: .sha512)
        }
        // A truncated SHA-256 is its leftmost bytes.
        let short = try? OTAImage(
            payload: Self.payload, vendorID: 1, productID: 1, softwareVersion: 1, softwareVersionString: "1",
            digestType: .sha256_64)
        // The plain header ends with the full digest's 32 bytes and the structure's end.
        let fullDigest = Array(Self.plainHeader.dropLast().suffix(32))
        #expect(short?.header.digest == Array(fullDigest.prefix(8)))
    }
}
