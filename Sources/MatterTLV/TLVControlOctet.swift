// Matter Core §A.7.1 Element Type Field: the low 5 bits of the control octet.
enum TLVElementType {
    static let signed1: UInt8 = 0x00  // 0x01, 0x02, 0x03: 2, 4, 8 bytes
    static let unsigned1: UInt8 = 0x04  // 0x05, 0x06, 0x07: 2, 4, 8 bytes
    static let booleanFalse: UInt8 = 0x08
    static let booleanTrue: UInt8 = 0x09
    static let float: UInt8 = 0x0A
    static let double: UInt8 = 0x0B
    static let utf8Length1: UInt8 = 0x0C  // 0x0D, 0x0E, 0x0F: 2, 4, 8-byte lengths
    static let bytesLength1: UInt8 = 0x10  // 0x11, 0x12, 0x13: 2, 4, 8-byte lengths
    static let null: UInt8 = 0x14
    static let structure: UInt8 = 0x15
    static let array: UInt8 = 0x16
    static let list: UInt8 = 0x17
    static let endOfContainer: UInt8 = 0x18  // 0x19...0x1F are reserved
    static let mask: UInt8 = 0x1F
}

// Matter Core §A.7.2 Tag Control Field: values already shifted into the high 3 bits.
enum TLVTagControl {
    static let anonymous: UInt8 = 0x00
    static let context: UInt8 = 0x20
    static let commonProfile2: UInt8 = 0x40
    static let commonProfile4: UInt8 = 0x60
    static let implicitProfile2: UInt8 = 0x80
    static let implicitProfile4: UInt8 = 0xA0
    static let fullyQualified6: UInt8 = 0xC0
    static let fullyQualified8: UInt8 = 0xE0
    static let mask: UInt8 = 0xE0
}
