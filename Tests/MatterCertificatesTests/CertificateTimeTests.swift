import MatterCertificates
import MatterTestSupport
import Testing

struct CertificateTimeTests {
    @Test func utcTimeFromTheTestCertificates() throws {
        // "201015142343Z", Root01's notBefore.
        let time = try CertificateTime(
            derNode: DERParser.parse([UInt8](hex: "17 0d 32 30 31 30 31 35 31 34 32 33 34 33 5a")))
        #expect(time.description == "2020-10-15T14:23:43Z")
        // Root01's TLV not-before is 0x271B17EF seconds after 2000-01-01 (946684800 Unix).
        #expect(time.secondsSinceUnixEpoch == 946_684_800 + 0x271B_17EF)
    }

    @Test func twoDigitYearsFollowRFC5280() throws {
        let nineteen = try CertificateTime(derNode: DERParser.parse(Array("\u{17}\u{0d}500101000000Z".utf8)))
        let twenty = try CertificateTime(derNode: DERParser.parse(Array("\u{17}\u{0d}491231235959Z".utf8)))
        #expect(nineteen.year == 1950)
        #expect(twenty.year == 2049)
    }

    @Test func encodingSwitchesToGeneralizedTimeIn2050() throws {
        let late = try CertificateTime(year: 2050, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        #expect(DERWriter.encode(late.derNode) == Array("\u{18}\u{0f}20500101000000Z".utf8))
        let early = try CertificateTime(year: 2049, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        #expect(DERWriter.encode(early.derNode) == Array("\u{17}\u{0d}491231235959Z".utf8))
        #expect(
            DERWriter.encode(CertificateTime.noWellDefinedExpiration.derNode)
                == Array("\u{18}\u{0f}99991231235959Z".utf8))
    }

    @Test(arguments: [Int64(0), 951_782_400, 1_709_164_800, 4_102_444_799, 253_402_300_799, -86_400])
    func unixSecondsRoundTrip(seconds: Int64) throws {
        #expect(try CertificateTime(secondsSinceUnixEpoch: seconds).secondsSinceUnixEpoch == seconds)
    }

    @Test func leapDays() throws {
        // 2000-02-29 is 951782400; 2100 is not a leap year.
        #expect(try CertificateTime(secondsSinceUnixEpoch: 951_782_400).description == "2000-02-29T00:00:00Z")
        #expect(throws: DERError.self) {
            try CertificateTime(year: 2100, month: 2, day: 29, hour: 0, minute: 0, second: 0)
        }
    }

    @Test(arguments: [
        "\u{17}\u{0b}2010151423Z", "\u{17}\u{0d}201015142343+", "\u{17}\u{0d}201315142343Z",
        "\u{17}\u{0d}20101514236aZ", "\u{18}\u{0d}201015142343Z", "\u{04}\u{0d}201015142343Z",
    ])
    func rejectsOtherForms(encoding: String) throws {
        let node = try DERParser.parse(Array(encoding.utf8))
        #expect(throws: DERError.self) { try CertificateTime(derNode: node) }
    }
}
