import MatterDataModel
import MatterTLV
import Testing
import VendorFixture

@Suite struct NullableTests {
    @Test func nullIsTheTLVNullAndAValueIsItsOwnEncoding() throws {
        #expect(Nullable<UInt16>.null.tlvValue() == .null)
        #expect(Nullable<UInt16>.value(7).tlvValue() == .unsigned(7))
        #expect(try Nullable<UInt16>(tlv: TLVElement(.null)) == .null)
        #expect(try Nullable<UInt16>(tlv: TLVElement(.unsigned(7))) == .value(7))
        #expect(throws: TLVError.typeMismatch(expected: .unsignedInteger, found: .utf8String)) {
            try Nullable<UInt16>(tlv: TLVElement(.utf8("x")))
        }
    }

    @Test func convertsFromAndToOptional() {
        #expect(Nullable<Int8>(nil) == .null && Nullable<Int8>(-3) == .value(-3))
        #expect(Nullable<Int8>.value(-3).optional == -3 && Nullable<Int8>.null.optional == nil)
    }

    @Test func optionalAndNullableAreDistinctOnTheWire() throws {
        // The vendor fixture's SpinStopped.reason is `optional nullable`: absent, null and a value all differ.
        typealias SpinStopped = AcmeClusters.AcmeSprocketCluster.Events.SpinStopped
        let absent = SpinStopped(turns: 1)
        let null = SpinStopped(turns: 1, reason: .null)
        let value = SpinStopped(turns: 1, reason: .value("jam"))
        #expect(TLVWriter.encode(TLVElement(absent.tlvValue())) == [0x15, 0x24, 0x00, 0x01, 0x18])
        #expect(TLVWriter.encode(TLVElement(null.tlvValue())) == [0x15, 0x24, 0x00, 0x01, 0x34, 0x01, 0x18])
        for event in [absent, null, value] {
            #expect(try SpinStopped(tlv: TLVReader.decode(TLVWriter.encode(TLVElement(event.tlvValue())))) == event)
        }
    }
}
