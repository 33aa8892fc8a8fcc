import MatterCrypto
import MatterTLV

// Matter Core §11.21.2 OTA Software Image file format: a fixed header (FileIdentifier 0x1BEEF11E, TotalSize,
// HeaderSize; little-endian), the Header as an anonymous TLV structure, then the payload. Read in two phases, as
// swift-certificates reads a certificate: the fixed header says how long the whole header is (so a file is read no
// further to learn what it holds), then the TLV header is parsed; the policies on what was read are small checks of
// their own. connectedhomeip's `ota_image_tool.py create` makes such files, and ours are made byte for byte the same.

/// What an OTA image's header says: whose it is, which version, which versions it applies to, and the payload's size
/// and digest.
public struct OTAImageHeader: Sendable, Hashable {
    /// FileIdentifier.
    public static let fileIdentifier: UInt32 = 0x1BEE_F11E
    /// FileIdentifier (4), TotalSize (8), HeaderSize (4).
    public static let fixedHeaderSize = 16

    public var vendorID: UInt16
    public var productID: UInt16
    public var softwareVersion: UInt32
    /// 1 to 64 characters.
    public var softwareVersionString: String
    public var payloadSize: UInt64
    public var minApplicableSoftwareVersion: UInt32?
    public var maxApplicableSoftwareVersion: UInt32?
    /// At most 256 characters.
    public var releaseNotesURL: String?
    public var digestType: OTAImageDigestType
    public var digest: [UInt8]

    public init(
        vendorID: UInt16, productID: UInt16, softwareVersion: UInt32, softwareVersionString: String,
        payloadSize: UInt64, minApplicableSoftwareVersion: UInt32? = nil, maxApplicableSoftwareVersion: UInt32? = nil,
        releaseNotesURL: String? = nil, digestType: OTAImageDigestType, digest: [UInt8]
    ) {
        self.vendorID = vendorID
        self.productID = productID
        self.softwareVersion = softwareVersion
        self.softwareVersionString = softwareVersionString
        self.payloadSize = payloadSize
        self.minApplicableSoftwareVersion = minApplicableSoftwareVersion
        self.maxApplicableSoftwareVersion = maxApplicableSoftwareVersion
        self.releaseNotesURL = releaseNotesURL
        self.digestType = digestType
        self.digest = digest
    }

    // MARK: Phase 1: the fixed header

    /// How many bytes the whole header takes (the fixed header and the TLV header): read that many, then parse.
    public static func headerLength(of prefix: some Collection<UInt8>) throws(OTAImageError) -> Int {
        let bytes = Array(prefix.prefix(fixedHeaderSize))
        guard bytes.count == fixedHeaderSize else { throw .truncated("the fixed header is \(fixedHeaderSize) bytes") }
        guard littleEndian(bytes[0..<4]) == UInt64(fileIdentifier) else {
            throw .notAnOTAImage(
                "its file identifier is 0x\(String(littleEndian(bytes[0..<4]), radix: 16, uppercase: true)), not 0x1BEEF11E"
            )
        }
        let headerSize = littleEndian(bytes[12..<16])
        guard headerSize <= OTAImageLimits.headerBytes else {
            throw .malformed("a header of \(headerSize) bytes is more than \(OTAImageLimits.headerBytes)")
        }
        return fixedHeaderSize + Int(headerSize)
    }

    // MARK: Phase 2: the TLV header

    /// The total size the fixed header states, and the header it holds (`bytes` is at least `headerLength` long).
    public static func parse(_ bytes: [UInt8]) throws(OTAImageError) -> (totalSize: UInt64, header: OTAImageHeader) {
        let length = try headerLength(of: bytes)
        guard bytes.count >= length else {
            throw .truncated("the header is \(length) bytes, the file has \(bytes.count)")
        }
        let totalSize = littleEndian(bytes[4..<12])
        let element: TLVElement
        do {
            element = try TLVReader.decode(Array(bytes[fixedHeaderSize..<length]))
        } catch {
            throw .malformed("the header is not TLV: \(error)")
        }
        guard case .structure = element.value else { throw .malformed("the header is not a TLV structure") }
        func unsigned(_ tag: UInt8, _ name: String, max: UInt64) throws(OTAImageError) -> UInt64? {
            guard let member = element[context: tag] else { return nil }
            guard case .unsigned(let value) = member.value, value <= max else {
                throw .malformed("\(name) (tag \(tag)) is not an unsigned integer of its width")
            }
            return value
        }
        func required(_ tag: UInt8, _ name: String, max: UInt64) throws(OTAImageError) -> UInt64 {
            guard let value = try unsigned(tag, name, max: max) else { throw .malformed("the header has no \(name)") }
            return value
        }
        func string(_ tag: UInt8, _ name: String) throws(OTAImageError) -> String? {
            guard let member = element[context: tag] else { return nil }
            guard case .utf8(let text) = member.value else { throw .malformed("\(name) (tag \(tag)) is not a string") }
            return text
        }
        guard let versionString = try string(3, "SoftwareVersionString") else {
            throw .malformed("the header has no SoftwareVersionString")
        }
        let digestTypeValue = try required(8, "ImageDigestType", max: UInt64(UInt8.max))
        guard let digestType = OTAImageDigestType(rawValue: UInt8(digestTypeValue)) else {
            throw .malformed("ImageDigestType \(digestTypeValue) is none of IANA's named information hashes")
        }
        guard case .bytes(let digest)? = element[context: 9]?.value else {
            throw .malformed("the header has no ImageDigest")
        }
        let header = OTAImageHeader(
            vendorID: UInt16(try required(0, "VendorID", max: UInt64(UInt16.max))),
            productID: UInt16(try required(1, "ProductID", max: UInt64(UInt16.max))),
            softwareVersion: UInt32(try required(2, "SoftwareVersion", max: UInt64(UInt32.max))),
            softwareVersionString: versionString,
            payloadSize: try required(4, "PayloadSize", max: UInt64.max),
            minApplicableSoftwareVersion: try unsigned(5, "MinApplicableSoftwareVersion", max: UInt64(UInt32.max))
                .map(UInt32.init),
            maxApplicableSoftwareVersion: try unsigned(6, "MaxApplicableSoftwareVersion", max: UInt64(UInt32.max))
                .map(UInt32.init),
            releaseNotesURL: try string(7, "ReleaseNotesURL"), digestType: digestType, digest: digest)
        try OTAImagePolicy.check(header)
        guard totalSize == UInt64(length) + header.payloadSize else {
            throw .malformed(
                "the file's TotalSize \(totalSize) is not its header's \(length) bytes and the payload's \(header.payloadSize)"
            )
        }
        return (totalSize, header)
    }

    /// The fixed header and the TLV header, its members in tag order (as `ota_image_tool.py` writes them).
    public var encoded: [UInt8] {
        var members: [TLVElement] = [
            TLVElement(tag: .context(0), .unsigned(UInt64(vendorID))),
            TLVElement(tag: .context(1), .unsigned(UInt64(productID))),
            TLVElement(tag: .context(2), .unsigned(UInt64(softwareVersion))),
            TLVElement(tag: .context(3), .utf8(softwareVersionString)),
            TLVElement(tag: .context(4), .unsigned(payloadSize)),
        ]
        if let minApplicableSoftwareVersion {
            members.append(TLVElement(tag: .context(5), .unsigned(UInt64(minApplicableSoftwareVersion))))
        }
        if let maxApplicableSoftwareVersion {
            members.append(TLVElement(tag: .context(6), .unsigned(UInt64(maxApplicableSoftwareVersion))))
        }
        if let releaseNotesURL { members.append(TLVElement(tag: .context(7), .utf8(releaseNotesURL))) }
        members.append(TLVElement(tag: .context(8), .unsigned(UInt64(digestType.rawValue))))
        members.append(TLVElement(tag: .context(9), .bytes(digest)))
        let tlv = TLVWriter.encode(TLVElement(.structure(members)))
        let total = UInt64(Self.fixedHeaderSize + tlv.count) + payloadSize
        return Self.littleEndianBytes(UInt64(Self.fileIdentifier), count: 4) + Self.littleEndianBytes(total, count: 8)
            + Self.littleEndianBytes(UInt64(tlv.count), count: 4) + tlv
    }

    /// Whether a device running `version` gains by this image: it is a later version, and `version` is in its
    /// applicable range.
    public func isUpgrade(from version: UInt32) -> Bool {
        softwareVersion > version && applies(toVersion: version)
    }

    /// Whether a device at `version` may take this image (the applicable range, when the header gives one).
    public func applies(toVersion version: UInt32) -> Bool {
        (minApplicableSoftwareVersion.map { version >= $0 } ?? true)
            && (maxApplicableSoftwareVersion.map { version <= $0 } ?? true)
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func littleEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// A whole OTA image: its header and payload, checked against each other (sizes, digest).
public struct OTAImage: Sendable, Hashable {
    public let header: OTAImageHeader
    public let payload: [UInt8]

    /// Reads a file's bytes; its payload must be the size and digest its header states.
    public init(parsing bytes: [UInt8]) throws(OTAImageError) {
        let (totalSize, header) = try OTAImageHeader.parse(bytes)
        guard UInt64(bytes.count) == totalSize else {
            throw .truncated("the file is \(bytes.count) bytes, its header says \(totalSize)")
        }
        let payload = Array(bytes[(bytes.count - Int(header.payloadSize))...])
        guard try header.digestType.digest(payload) == header.digest else {
            throw .digestMismatch("the payload's \(header.digestType) digest is not the header's")
        }
        self.header = header
        self.payload = payload
    }

    /// An image of `payload` with the header's fields (its size and digest computed here), checked as any file is.
    public init(
        payload: [UInt8], vendorID: UInt16, productID: UInt16, softwareVersion: UInt32, softwareVersionString: String,
        minApplicableSoftwareVersion: UInt32? = nil, maxApplicableSoftwareVersion: UInt32? = nil,
        releaseNotesURL: String? = nil, digestType: OTAImageDigestType = .sha256
    ) throws(OTAImageError) {
        let header = OTAImageHeader(
            vendorID: vendorID, productID: productID, softwareVersion: softwareVersion,
            softwareVersionString: softwareVersionString, payloadSize: UInt64(payload.count),
            minApplicableSoftwareVersion: minApplicableSoftwareVersion,
            maxApplicableSoftwareVersion: maxApplicableSoftwareVersion, releaseNotesURL: releaseNotesURL,
            digestType: digestType, digest: try digestType.digest(payload))
        try OTAImagePolicy.check(header)
        self.header = header
        self.payload = payload
    }

    /// The file.
    public var encoded: [UInt8] { header.encoded + payload }
}

/// ImageDigestType (§11.21.2.8): IANA's Named Information Hash Algorithm Registry.
public enum OTAImageDigestType: UInt8, Sendable, Hashable, CustomStringConvertible {
    case sha256 = 1
    case sha256_128 = 2
    case sha256_120 = 3
    case sha256_96 = 4
    case sha256_64 = 5
    case sha256_32 = 6
    case sha384 = 7
    case sha512 = 8
    case sha3_224 = 9
    case sha3_256 = 10
    case sha3_384 = 11
    case sha3_512 = 12

    public var description: String {
        switch self {
        case .sha256: "SHA-256"
        case .sha256_128: "SHA-256/128"
        case .sha256_120: "SHA-256/120"
        case .sha256_96: "SHA-256/96"
        case .sha256_64: "SHA-256/64"
        case .sha256_32: "SHA-256/32"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        case .sha3_224: "SHA3-224"
        case .sha3_256: "SHA3-256"
        case .sha3_384: "SHA3-384"
        case .sha3_512: "SHA3-512"
        }
    }

    /// The digest's length in bytes.
    public var length: Int {
        switch self {
        case .sha256, .sha3_256: 32
        case .sha256_128: 16
        case .sha256_120: 15
        case .sha256_96: 12
        case .sha256_64: 8
        case .sha256_32: 4
        case .sha384, .sha3_384: 48
        case .sha512, .sha3_512: 64
        case .sha3_224: 28
        }
    }

    /// The digest of `bytes`: SHA-256 and its truncations (RFC 6920: the leftmost bits); the others are refused.
    public func digest(_ bytes: [UInt8]) throws(OTAImageError) -> [UInt8] {
        switch self {
        case .sha256, .sha256_128, .sha256_120, .sha256_96, .sha256_64, .sha256_32:
            Array(SHA256.hash(bytes).prefix(length))
        default:
            throw .unsupported("\(self) digests are not checked here (SHA-256 and its truncations are)")
        }
    }
}

/// The checks a header must pass, each a small function (as `ota_image_tool.py create` validates, and §11.21.2).
enum OTAImagePolicy {
    static func check(_ header: OTAImageHeader) throws(OTAImageError) {
        try namesAProduct(header)
        try hasAVersionString(header)
        try hasAnApplicableRange(header)
        try hasAReleaseNotesURLThatFits(header)
        try hasADigestOfItsLength(header)
    }

    static func namesAProduct(_ header: OTAImageHeader) throws(OTAImageError) {
        guard header.vendorID != 0, header.productID != 0 else {
            throw .malformed("a vendor and product ID of 0 name no product")
        }
    }

    static func hasAVersionString(_ header: OTAImageHeader) throws(OTAImageError) {
        guard (1...64).contains(header.softwareVersionString.count) else {
            throw .malformed("SoftwareVersionString is 1 to 64 characters")
        }
    }

    static func hasAnApplicableRange(_ header: OTAImageHeader) throws(OTAImageError) {
        if let min = header.minApplicableSoftwareVersion, let max = header.maxApplicableSoftwareVersion, max < min {
            throw .malformed("MaxApplicableSoftwareVersion \(max) is below MinApplicableSoftwareVersion \(min)")
        }
    }

    static func hasAReleaseNotesURLThatFits(_ header: OTAImageHeader) throws(OTAImageError) {
        if let url = header.releaseNotesURL, !(1...256).contains(url.count) {
            throw .malformed("ReleaseNotesURL is 1 to 256 characters")
        }
    }

    static func hasADigestOfItsLength(_ header: OTAImageHeader) throws(OTAImageError) {
        guard header.digest.count == header.digestType.length else {
            throw .malformed(
                "a \(header.digestType) digest is \(header.digestType.length) bytes, the header's is \(header.digest.count)"
            )
        }
    }
}

/// Every limit of OTA image files, with its reason.
public enum OTAImageLimits {
    /// A header larger than this is refused before it is read: the largest well-formed one (a 64-character version,
    /// a 256-character URL, a 64-byte digest) is under 400 bytes.
    public static let headerBytes: UInt64 = 4096
}

/// Why a file is no usable OTA image.
public enum OTAImageError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAnOTAImage(String)
    case truncated(String)
    case malformed(String)
    case digestMismatch(String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .notAnOTAImage(let reason): "not an OTA image: \(reason)"
        case .truncated(let reason): "the OTA image is cut short: \(reason)"
        case .malformed(let reason): "malformed OTA image: \(reason)"
        case .digestMismatch(let reason): "the OTA image's payload is not the one its header describes: \(reason)"
        case .unsupported(let reason): "unsupported OTA image: \(reason)"
        }
    }
}
