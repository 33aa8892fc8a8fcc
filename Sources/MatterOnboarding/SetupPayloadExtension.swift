import MatterTLV

// Matter Core §5.1.3.2 TLV Data: an anonymous structure after the packed fields, whose members carry
// context tags 0x00…0x7F (common, defined by the spec) or 0x80…0xFF (manufacturer-specific).
public struct SetupPayloadExtension: Hashable, Sendable {
    public static let serialNumberTag: UInt8 = 0x00
    public static let pbkdfIterationsTag: UInt8 = 0x01
    public static let pbkdfSaltTag: UInt8 = 0x02
    public static let numberOfDevicesTag: UInt8 = 0x03
    public static let commissioningTimeoutTag: UInt8 = 0x04
    /// §5.1.3.2: tags from here on belong to the manufacturer.
    public static let firstVendorTag: UInt8 = 0x80

    public var tag: UInt8
    public var value: TLVValue

    public init(tag: UInt8, value: TLVValue) {
        self.tag = tag
        self.value = value
    }

    public var isVendorSpecific: Bool { tag >= Self.firstVendorTag }

    /// The spec's name for a common tag; nil for vendor-specific and reserved tags.
    public var name: String? {
        switch tag {
        case Self.serialNumberTag: "serialNumber"
        case Self.pbkdfIterationsTag: "pbkdfIterations"
        case Self.pbkdfSaltTag: "pbkdfSalt"
        case Self.numberOfDevicesTag: "numberOfDevices"
        case Self.commissioningTimeoutTag: "commissioningTimeout"
        default: nil
        }
    }

    /// Checks a common tag's value type; reserved common tags and vendor tags are accepted as they come,
    /// so codes from newer devices still parse.
    func validate() throws(OnboardingError) {
        let valid: Bool =
            switch (tag, value) {
            case (Self.serialNumberTag, .utf8): true
            case (Self.serialNumberTag, .unsigned(let number)): number <= UInt32.max
            case (Self.pbkdfIterationsTag, .unsigned(let number)): number <= UInt32.max
            case (Self.pbkdfSaltTag, .bytes(let salt)): (16...32).contains(salt.count)
            case (Self.numberOfDevicesTag, .unsigned(let number)): (1...255).contains(number)
            case (Self.commissioningTimeoutTag, .unsigned(let number)): number <= UInt16.max
            case (Self.serialNumberTag...Self.commissioningTimeoutTag, _): false
            default: true
            }
        guard valid else { throw .invalidExtension("\(name ?? "tag \(tag)") has an invalid value \(value)") }
    }

    static func decode(_ bytes: [UInt8]) throws(OnboardingError) -> [SetupPayloadExtension] {
        guard !bytes.isEmpty else { return [] }
        let element: TLVElement
        do {
            element = try TLVReader.decode(bytes)
        } catch {
            throw .invalidExtensionData(error)
        }
        guard element.tag == .anonymous, case .structure(let members) = element.value else {
            throw .invalidExtension("expected an anonymous structure")
        }
        var extensions: [SetupPayloadExtension] = []
        for member in members {
            guard case .context(let tag) = member.tag else {
                throw .invalidExtension("members must have context tags, found \(member.tag)")
            }
            let entry = SetupPayloadExtension(tag: tag, value: member.value)
            try entry.validate()
            extensions.append(entry)
        }
        return extensions
    }

    static func encode(_ extensions: [SetupPayloadExtension]) -> [UInt8] {
        guard !extensions.isEmpty else { return [] }
        let members = extensions.map { TLVElement(tag: .context($0.tag), $0.value) }
        return TLVWriter.encode(TLVElement(.structure(members)))
    }
}
