import MatterOnboarding
import Testing

/// The QR Code symbol of an onboarding payload, checked against ISO/IEC 18004's structure: the smallest version at
/// level M, the function patterns where §7.3 puts them, format and version information that decode as BCH codes to
/// level M and the chosen mask. (scripts/interop-dashboard.sh has zbarimg, a decoder nobody here wrote, read one.)
struct QRCodeTests {
    /// The format information of the first copy (§7.9.1), unmasked: nil when it is no BCH(15, 5) codeword.
    static func format(_ code: QRCode) -> (level: Int, mask: Int)? {
        let m = code.modules
        var bits = 0
        let places: [(Int, Int)] =
            (0...5).map { (8, $0) } + [(8, 7), (8, 8), (7, 8)] + (9..<15).map { (14 - $0, 8) }
        for (index, place) in places.enumerated() where m[place.1][place.0] { bits |= 1 << index }
        let raw = bits ^ 0x5412
        var remainder = raw
        for shift in stride(from: 14, through: 10, by: -1) where remainder & (1 << shift) != 0 {
            remainder ^= 0x537 << (shift - 10)
        }
        guard remainder == 0 else { return nil }
        return (raw >> 13, (raw >> 10) & 7)
    }

    static func isFinder(_ code: QRCode, x: Int, y: Int) -> Bool {
        (0..<7).allSatisfy { dy in
            (0..<7).allSatisfy { dx in
                let ring = max(abs(dx - 3), abs(dy - 3))
                return code.modules[y + dy][x + dx] == (ring != 2)
            }
        }
    }

    @Test func anOnboardingPayloadIsTheSmallestVersionAtLevelMWithItsPatternsInPlace() throws {
        let code = try QRCode("MT:Y.K9042C00KA0648G00")
        #expect(code.version == 2 && code.size == 25, "22 alphanumeric characters: more than version 1's 20 at M")
        #expect(Self.isFinder(code, x: 0, y: 0) && Self.isFinder(code, x: 18, y: 0) && Self.isFinder(code, x: 0, y: 18))
        #expect((8..<17).allSatisfy { code.modules[6][$0] == ($0 % 2 == 0) }, "the horizontal timing pattern")
        #expect((8..<17).allSatisfy { code.modules[$0][6] == ($0 % 2 == 0) }, "the vertical timing pattern")
        #expect(code.modules[17][8], "the dark module")
        // The alignment pattern of version 2, centred at (18, 18).
        #expect(code.modules[18][18] && !code.modules[17][18] && code.modules[16][18])
        let format = try #require(Self.format(code))
        #expect(format.level == 0 && format.mask == code.mask, "level M (00) and the mask chosen")
        #expect(code.svg.hasPrefix("<svg") && code.svg.contains("viewBox=\"0 0 33 33\""), "four modules of quiet zone")
    }

    @Test func otherTextGoesInByteModeAndTooMuchIsRefused() throws {
        let lower = try QRCode("hello")
        #expect(lower.version == 1 && Self.format(lower)?.level == 0)
        let long = try QRCode(String(repeating: "A1", count: 90))
        #expect(long.version >= 7 && long.size == 17 + 4 * long.version)
        // Version information (§7.10): the version in 6 bits and its BCH(18, 6) code, bottom-left block.
        var bits = 0
        for index in 0..<18 where long.modules[long.size - 11 + index % 3][index / 3] { bits |= 1 << index }
        #expect(bits >> 12 == long.version)
        var remainder = bits
        for shift in stride(from: 17, through: 12, by: -1) where remainder & (1 << shift) != 0 {
            remainder ^= 0x1F25 << (shift - 12)
        }
        #expect(remainder == 0)
        #expect(throws: QRCode.Failure.tooLong(400)) { try QRCode(String(repeating: "A", count: 400)) }
        #expect(QRCode.svg(String(repeating: "A", count: 400)).isEmpty)
    }
}
