import MatterTLV
import Testing

/// Matter Core Specification Appendix A "TLV Examples" table: every row of the table, as
/// (description, encoding, element). `shortest` is false for the one row that is not the
/// shortest encoding of its value (the writer then picks a shorter one).
struct TLVSpecExample: Sendable, CustomTestStringConvertible {
    var name: String
    var encoding: String
    var element: TLVElement
    var shortest = true

    var testDescription: String { name }
}

let specExamples: [TLVSpecExample] = [
    .init(name: "Boolean false", encoding: "08", element: TLVElement(.bool(false))),
    .init(name: "Boolean true", encoding: "09", element: TLVElement(.bool(true))),
    .init(name: "Signed Integer, 1-octet, value 42", encoding: "00 2a", element: TLVElement(.signed(42))),
    .init(name: "Signed Integer, 1-octet, value -17", encoding: "00 ef", element: TLVElement(.signed(-17))),
    .init(name: "Unsigned Integer, 1-octet, value 42U", encoding: "04 2a", element: TLVElement(.unsigned(42))),
    .init(
        name: "Signed Integer, 2-octet, value 42", encoding: "01 2a 00", element: TLVElement(.signed(42)),
        shortest: false),
    .init(
        name: "Signed Integer, 4-octet, value -170000", encoding: "02 f0 67 fd ff",
        element: TLVElement(.signed(-170000))),
    .init(
        name: "Signed Integer, 8-octet, value 40000000000", encoding: "03 00 90 2f 50 09 00 00 00",
        element: TLVElement(.signed(40_000_000_000))),
    .init(
        name: "UTF-8 String, 1-octet length, \"Hello!\"", encoding: "0c 06 48 65 6c 6c 6f 21",
        element: TLVElement(.utf8("Hello!"))),
    .init(
        name: "UTF-8 String, 1-octet length, \"Tschüs\"", encoding: "0c 07 54 73 63 68 c3 bc 73",
        element: TLVElement(.utf8("Tschüs"))),
    .init(
        name: "Octet String, 1-octet length, octets 00 01 02 03 04", encoding: "10 05 00 01 02 03 04",
        element: TLVElement(.bytes([0, 1, 2, 3, 4]))),
    .init(name: "Null", encoding: "14", element: TLVElement(.null)),
    .init(name: "Single precision floating point 0.0", encoding: "0a 00 00 00 00", element: TLVElement(.float(0))),
    .init(
        name: "Single precision floating point (1.0 / 3.0)", encoding: "0a ab aa aa 3e",
        element: TLVElement(.float(1.0 / 3.0))),
    .init(name: "Single precision floating point 17.9", encoding: "0a 33 33 8f 41", element: TLVElement(.float(17.9))),
    .init(
        name: "Single precision floating point infinity", encoding: "0a 00 00 80 7f",
        element: TLVElement(.float(.infinity))),
    .init(
        name: "Single precision floating point negative infinity", encoding: "0a 00 00 80 ff",
        element: TLVElement(.float(-.infinity))),
    .init(
        name: "Double precision floating point 0.0", encoding: "0b 00 00 00 00 00 00 00 00",
        element: TLVElement(.double(0))),
    .init(
        name: "Double precision floating point (1.0 / 3.0)", encoding: "0b 55 55 55 55 55 55 d5 3f",
        element: TLVElement(.double(1.0 / 3.0))),
    .init(
        name: "Double precision floating point 17.9", encoding: "0b 66 66 66 66 66 e6 31 40",
        element: TLVElement(.double(17.9))),
    .init(
        name: "Double precision floating point infinity", encoding: "0b 00 00 00 00 00 00 f0 7f",
        element: TLVElement(.double(.infinity))),
    .init(
        name: "Double precision floating point negative infinity", encoding: "0b 00 00 00 00 00 00 f0 ff",
        element: TLVElement(.double(-.infinity))),
    .init(name: "Empty Structure, {}", encoding: "15 18", element: TLVElement(.structure([]))),
    .init(name: "Empty Array, []", encoding: "16 18", element: TLVElement(.array([]))),
    .init(name: "Empty List, []", encoding: "17 18", element: TLVElement(.list([]))),
    .init(
        name: "Structure, two context specific tags, {0 = 42, 1 = -17}", encoding: "15 20 00 2a 20 01 ef 18",
        element: TLVElement(
            .structure([
                TLVElement(tag: .context(0), .signed(42)),
                TLVElement(tag: .context(1), .signed(-17)),
            ]))),
    .init(
        name: "Array, Signed Integer, 1-octet values, [0, 1, 2, 3, 4]", encoding: "16 00 00 00 01 00 02 00 03 00 04 18",
        element: TLVElement(.array((0...4).map { TLVElement(.signed($0)) }))),
    .init(
        name: "List, mix of anonymous and context tags, [[1, 0 = 42, 2, 3, 0 = -17]]",
        encoding: "17 00 01 20 00 2a 00 02 00 03 20 00 ef 18",
        element: TLVElement(
            .list([
                TLVElement(.signed(1)),
                TLVElement(tag: .context(0), .signed(42)),
                TLVElement(.signed(2)),
                TLVElement(.signed(3)),
                TLVElement(tag: .context(0), .signed(-17)),
            ]))),
    .init(
        name: "Array, mix of element types, [42, -170000, {}, 17.9, \"Hello!\"]",
        encoding: "16 00 2a 02 f0 67 fd ff 15 18 0a 33 33 8f 41 0c 06 48 65 6c 6c 6f 21 18",
        element: TLVElement(
            .array([
                TLVElement(.signed(42)),
                TLVElement(.signed(-170000)),
                TLVElement(.structure([])),
                TLVElement(.float(17.9)),
                TLVElement(.utf8("Hello!")),
            ]))),
    .init(
        name: "Anonymous tag, Unsigned Integer, 1-octet value, 42U", encoding: "04 2a",
        element: TLVElement(.unsigned(42))),
    .init(
        name: "Context tag 1, Unsigned Integer, 1-octet value, 1 = 42U", encoding: "24 01 2a",
        element: TLVElement(tag: .context(1), .unsigned(42))),
    .init(
        name: "Common profile tag 1, Matter::1 = 42U", encoding: "44 01 00 2a",
        element: TLVElement(tag: .commonProfile(1), .unsigned(42))),
    .init(
        name: "Common profile tag 100000, Matter::100000 = 42U", encoding: "64 a0 86 01 00 2a",
        element: TLVElement(tag: .commonProfile(100_000), .unsigned(42))),
    .init(
        name: "Fully qualified tag, 65521::57069:1 = 42U", encoding: "c4 f1 ff ed de 01 00 2a",
        element: TLVElement(tag: .fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 1), .unsigned(42))),
    .init(
        name: "Fully qualified tag, 65521::57069:2857762541 = 42U", encoding: "e4 f1 ff ed de ed fe 55 aa 2a",
        element: TLVElement(tag: .fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 0xAA55_FEED), .unsigned(42))),
    .init(
        name: "Structure with fully qualified tags, 65521::57069:1 = {65521::57069:43605 = 42U}",
        encoding: "d5 f1 ff ed de 01 00 c4 f1 ff ed de 55 aa 2a 18",
        element: TLVElement(
            tag: .fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 1),
            .structure([
                TLVElement(tag: .fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 0xAA55), .unsigned(42))
            ]))),
]
