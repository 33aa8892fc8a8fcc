// RFC 5280 §4.1.2.5 Validity: a UTC calendar time to the second, as UTCTime or GeneralizedTime.
public struct CertificateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) throws(DERError) {
        guard (0...9999).contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year: year, month: month)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else {
            throw .invalidValue(
                type: "time", reason: "\(year)-\(month)-\(day) \(hour):\(minute):\(second) is not a valid UTC time")
        }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// RFC 5280 §4.1.2.5: "99991231235959Z", a certificate with no well-defined expiration date.
    public static let noWellDefinedExpiration = CertificateTime(unchecked: 9999, 12, 31, 23, 59, 59)

    private init(unchecked year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
    }

    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    public var secondsSinceUnixEpoch: Int64 {
        Int64(Self.daysSinceUnixEpoch(year: year, month: month, day: day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    public init(secondsSinceUnixEpoch seconds: Int64) throws(DERError) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        guard let (year, month, day) = Self.civilDate(daysSinceUnixEpoch: days) else {
            throw .invalidValue(type: "time", reason: "\(seconds) seconds since 1970 is beyond year 9999")
        }
        try self.init(
            year: year, month: month, day: day, hour: secondOfDay / 3600,
            minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
    }

    // RFC 5280 §4.1.2.5.1 and §4.1.2.5.2: UTCTime through 2049, GeneralizedTime from 2050.
    public var derNode: DERNode {
        if (1950...2049).contains(year) {
            return DERNode(tag: .utcTime, primitive: Array((digits(year % 100, 2) + rest + "Z").utf8))
        }
        return DERNode(tag: .generalizedTime, primitive: Array((digits(year, 4) + rest + "Z").utf8))
    }

    /// Reads a UTCTime (YYMMDDHHMMSSZ) or GeneralizedTime (YYYYMMDDHHMMSSZ) in its RFC 5280 form.
    public init(derNode node: DERNode) throws(DERError) {
        let yearDigits: Int
        switch node.tag {
        case .utcTime: yearDigits = 2
        case .generalizedTime: yearDigits = 4
        default: throw .unexpectedTag(expected: "UTCTime or GeneralizedTime", found: node.tag)
        }
        let bytes = try node.primitiveContents(node.tag)
        guard bytes.count == yearDigits + 11, bytes.last == UInt8(ascii: "Z"),
            bytes.dropLast().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            throw .invalidValue(
                type: node.tag.description, reason: "expected \(yearDigits == 2 ? "YYMMDDHHMMSSZ" : "YYYYMMDDHHMMSSZ")")
        }
        func number(_ start: Int, _ count: Int) -> Int {
            bytes[start..<start + count].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        var year = number(0, yearDigits)
        if yearDigits == 2 {
            year += year >= 50 ? 1900 : 2000
        }
        let rest = yearDigits
        try self.init(
            year: year, month: number(rest, 2), day: number(rest + 2, 2), hour: number(rest + 4, 2),
            minute: number(rest + 6, 2), second: number(rest + 8, 2))
    }

    public static func < (lhs: CertificateTime, rhs: CertificateTime) -> Bool {
        lhs.secondsSinceUnixEpoch < rhs.secondsSinceUnixEpoch
    }

    public var description: String {
        "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(hour, 2)):\(digits(minute, 2)):\(digits(second, 2))Z"
    }

    private var rest: String {
        digits(month, 2) + digits(day, 2) + digits(hour, 2) + digits(minute, 2) + digits(second, 2)
    }

    private func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Proleptic Gregorian day counting (the "days from civil" method of H. Hinnant).
    private static func daysSinceUnixEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSinceUnixEpoch days: Int64) -> (Int, Int, Int)? {
        // Years 0 through 9999 span days -719_528 through 2_932_896.
        guard (-719_528...2_932_896).contains(days) else { return nil }
        let shifted = Int(days) + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
