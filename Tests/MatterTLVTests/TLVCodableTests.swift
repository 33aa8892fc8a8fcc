import MatterTLV
import Testing

@Suite struct TLVCodableTests {
    @Test func standardTypesEncodeToTheirTLVValues() {
        #expect(true.tlvValue() == .bool(true))
        #expect(Float(1.5).tlvValue() == .float(1.5))
        #expect(Double(1.5).tlvValue() == .double(1.5))
        #expect("Hello!".tlvValue() == .utf8("Hello!"))
        #expect(UInt16(300).tlvValue() == .unsigned(300))
        #expect(Int8(-17).tlvValue() == .signed(-17))
        #expect([UInt8]([1, 2]).tlvValue() == .bytes([1, 2]))
        #expect([UInt16]([1, 2]).tlvValue() == .array([TLVElement(.unsigned(1)), TLVElement(.unsigned(2))]))
        #expect([[UInt8]]([[1]]).tlvValue() == .array([TLVElement(.bytes([1]))]))
    }

    @Test func standardTypesRoundTripThroughBytes() throws {
        func roundTrip<T: TLVCodable & Equatable>(_ value: T) throws -> T {
            try T(tlv: TLVReader.decode(TLVWriter.encode(TLVElement(value.tlvValue()))))
        }
        #expect(try roundTrip(false) == false)
        #expect(try roundTrip(Float(17.9)) == 17.9)
        #expect(try roundTrip(Double(-0.25)) == -0.25)
        #expect(try roundTrip("Tschüs") == "Tschüs")
        #expect(try roundTrip([UInt8]([0, 255])) == [0, 255])
        #expect(try roundTrip(UInt64.max) == .max)
        #expect(try roundTrip(Int64.min) == .min)
        #expect(try roundTrip(UInt32(70000)) == 70000)
        #expect(try roundTrip(Int16(-300)) == -300)
        #expect(try roundTrip(["a", "b"]) == ["a", "b"])
    }

    @Test(arguments: [
        (TLVValue.unsigned(256), "value 256 does not fit UInt8"),
        (.signed(5), "expected unsigned integer, found signed integer"),
    ])
    func uint8RejectsOutOfRangeAndWrongType(_ value: TLVValue, _ message: String) {
        #expect(
            performing: { try UInt8(tlv: TLVElement(value)) }, throws: { ($0 as? TLVError)?.description == message })
    }

    @Test func integersCheckTheirRange() {
        #expect(throws: TLVError.integerOutOfRange(value: "128", type: "Int8")) {
            try Int8(tlv: TLVElement(.signed(128)))
        }
        #expect(throws: TLVError.integerOutOfRange(value: "-129", type: "Int8")) {
            try Int8(tlv: TLVElement(.signed(-129)))
        }
        #expect(throws: TLVError.integerOutOfRange(value: "65536", type: "UInt16")) {
            try UInt16(tlv: TLVElement(.unsigned(65536)))
        }
        #expect(throws: TLVError.integerOutOfRange(value: "4294967296", type: "UInt32")) {
            try UInt32(tlv: TLVElement(.unsigned(1 << 32)))
        }
        #expect(throws: TLVError.integerOutOfRange(value: "-2147483649", type: "Int32")) {
            try Int32(tlv: TLVElement(.signed(Int64(Int32.min) - 1)))
        }
        #expect(throws: TLVError.typeMismatch(expected: .signedInteger, found: .unsignedInteger)) {
            try Int64(tlv: TLVElement(.unsigned(1)))
        }
    }

    @Test func otherTypesRejectTheWrongElementType() {
        #expect(throws: TLVError.typeMismatch(expected: .boolean, found: .null)) { try Bool(tlv: TLVElement(.null)) }
        #expect(throws: TLVError.typeMismatch(expected: .float, found: .double)) {
            try Float(tlv: TLVElement(.double(1)))
        }
        #expect(throws: TLVError.typeMismatch(expected: .double, found: .float)) {
            try Double(tlv: TLVElement(.float(1)))
        }
        #expect(throws: TLVError.typeMismatch(expected: .utf8String, found: .octetString)) {
            try String(tlv: TLVElement(.bytes([])))
        }
        #expect(throws: TLVError.typeMismatch(expected: .octetString, found: .utf8String)) {
            try [UInt8](tlv: TLVElement(.utf8("")))
        }
        #expect(throws: TLVError.typeMismatch(expected: .array, found: .list)) {
            try [UInt16](tlv: TLVElement(.list([])))
        }
    }

    @Test func arrayErrorsNameTheElement() {
        let element = TLVElement(.array([TLVElement(.unsigned(1)), TLVElement(.utf8("x"))]))
        #expect(throws: TLVError.inElement(1, .typeMismatch(expected: .unsignedInteger, found: .utf8String))) {
            try [UInt16](tlv: element)
        }
    }
}
