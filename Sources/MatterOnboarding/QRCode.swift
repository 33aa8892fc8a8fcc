/// A QR Code symbol (ISO/IEC 18004:2015) of an onboarding payload, for a screen: "MT:…" is written in the
/// alphanumeric mode (§7.4.4; every character of Base-38 and the prefix is in its set), error correction level M
/// (§7.5.1: 15 % of the symbol may be lost to a smudge or a glare), the smallest version from 1 to 10 that holds it,
/// and the mask whose penalty (§7.8.3) is lowest. Text outside the alphanumeric set is written in byte mode.
public struct QRCode: Sendable, Hashable {
    /// Modules, row by row: true is dark.
    public let modules: [[Bool]]
    public let version: Int
    public let mask: Int

    public var size: Int { modules.count }

    public enum Failure: Error, Hashable {
        case tooLong(Int)
    }

    /// Level M's block structure per version (§7.5.1 Table 9): error correction codewords per block, and the blocks'
    /// data codewords.
    private static let blocks: [(ec: Int, data: [Int])] = [
        (10, [16]), (16, [28]), (26, [44]), (18, [32, 32]), (24, [43, 43]), (16, [27, 27, 27, 27]),
        (18, [31, 31, 31, 31]), (22, [38, 38, 39, 39]), (22, [36, 36, 36, 37, 37]), (26, [43, 43, 43, 43, 44]),
    ]

    /// Centres of the alignment patterns per version (Annex E).
    private static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
    ]

    private static let alphanumeric = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    public init(_ text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        let isAlphanumeric = bytes.allSatisfy { Self.alphanumeric.contains($0) }
        guard
            let version = (1...10).first(where: { version in
                Self.dataBits(bytes, alphanumeric: isAlphanumeric, version: version)
                    <= Self.blocks[version - 1].data.reduce(0, +) * 8
            })
        else { throw .tooLong(bytes.count) }
        let codewords = Self.codewords(bytes, alphanumeric: isAlphanumeric, version: version)
        var best: (penalty: Int, modules: [[Bool]], mask: Int)?
        for mask in 0..<8 {
            var matrix = Matrix(version: version)
            matrix.place(codewords, mask: mask)
            matrix.placeFormat(mask: mask)
            let penalty = matrix.penalty
            if best == nil || penalty < best!.penalty { best = (penalty, matrix.dark, mask) }
        }
        modules = best!.modules
        self.version = version
        mask = best!.mask
    }

    /// The symbol as an SVG image, one unit a module, with the quiet zone of four modules §7.3.7 asks.
    public var svg: String {
        let side = size + 8
        var path = ""
        for (y, row) in modules.enumerated() {
            for (x, dark) in row.enumerated() where dark { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    /// The SVG of `text`'s symbol, or an empty string when it is too long for version 10.
    public static func svg(_ text: String) -> String { (try? QRCode(text))?.svg ?? "" }

    // MARK: Encoding (§7.4)

    private static func countBits(alphanumeric: Bool, version: Int) -> Int {
        alphanumeric ? (version <= 9 ? 9 : 11) : (version <= 9 ? 8 : 16)
    }

    private static func dataBits(_ bytes: [UInt8], alphanumeric: Bool, version: Int) -> Int {
        let payload = alphanumeric ? 11 * (bytes.count / 2) + 6 * (bytes.count % 2) : 8 * bytes.count
        return 4 + countBits(alphanumeric: alphanumeric, version: version) + payload
    }

    /// The data codewords, padded, then each block's error correction codewords, interleaved (§7.6).
    private static func codewords(_ bytes: [UInt8], alphanumeric: Bool, version: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.append(alphanumeric ? 0b0010 : 0b0100, count: 4)
        bits.append(bytes.count, count: countBits(alphanumeric: alphanumeric, version: version))
        if alphanumeric {
            let values = bytes.map { byte in alphanumericValue(byte) }
            var index = 0
            while index + 1 < values.count {
                bits.append(values[index] * 45 + values[index + 1], count: 11)
                index += 2
            }
            if index < values.count { bits.append(values[index], count: 6) }
        } else {
            for byte in bytes { bits.append(Int(byte), count: 8) }
        }
        let (ec, sizes) = blocks[version - 1]
        let capacity = sizes.reduce(0, +) * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < capacity / 8 {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        var blockData: [[UInt8]] = []
        var start = 0
        for size in sizes {
            blockData.append(Array(data[start..<start + size]))
            start += size
        }
        let generator = ReedSolomon.generator(degree: ec)
        let blockEC = blockData.map { ReedSolomon.remainder($0, generator: generator) }
        var out: [UInt8] = []
        for index in 0..<(sizes.max() ?? 0) {
            for block in blockData where index < block.count { out.append(block[index]) }
        }
        for index in 0..<ec {
            for block in blockEC { out.append(block[index]) }
        }
        return out
    }

    private static func alphanumericValue(_ byte: UInt8) -> Int {
        alphanumeric.firstIndex(of: byte) ?? 0
    }

    // MARK: The matrix (§7.7, §7.9)

    private struct Matrix {
        let version: Int
        let size: Int
        var dark: [[Bool]]
        /// Modules of the function patterns and format and version information: no data there.
        var reserved: [[Bool]]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            dark = Array(repeating: Array(repeating: false, count: size), count: size)
            reserved = dark
            for (x, y) in [(0, 0), (size - 7, 0), (0, size - 7)] { finder(x, y) }
            for index in 8..<(size - 8) {
                set(index, 6, index % 2 == 0)
                set(6, index, index % 2 == 0)
            }
            // Every pair of centres but the three the finder patterns hold (they cross the timing patterns).
            let centres = QRCode.alignment[version - 1]
            let last = centres.last ?? 0
            for cy in centres {
                for cx in centres where !(cx == 6 && cy == 6) && !(cx == 6 && cy == last) && !(cx == last && cy == 6) {
                    alignmentPattern(cx, cy)
                }
            }
            // The dark module, and the format information's places (filled once the mask is chosen).
            set(8, size - 8, true)
            for index in 0..<9 {
                reserve(8, index)
                reserve(index, 8)
            }
            for index in 0..<8 {
                reserve(size - 1 - index, 8)
                reserve(8, size - 1 - index)
            }
            if version >= 7 { placeVersion() }
        }

        mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
            dark[y][x] = value
            reserved[y][x] = true
        }

        mutating func reserve(_ x: Int, _ y: Int) { reserved[y][x] = true }

        mutating func finder(_ left: Int, _ top: Int) {
            for dy in -1...7 {
                for dx in -1...7 {
                    let x = left + dx
                    let y = top + dy
                    guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                    let ring = max(abs(dx - 3), abs(dy - 3))
                    set(x, y, ring != 2 && ring != 4)
                }
            }
        }

        mutating func alignmentPattern(_ cx: Int, _ cy: Int) {
            for dy in -2...2 {
                for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
            }
        }

        /// §7.10: the version's 6 bits and their BCH(18, 6) code, in the two 6×3 blocks.
        mutating func placeVersion() {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for index in 0..<18 {
                let bit = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3
                let b = index / 3
                set(a, b, bit)
                set(b, a, bit)
            }
        }

        /// §7.9.1: format information, level M (00) and the mask, BCH(15, 5), masked with 101010000010010.
        mutating func placeFormat(mask: Int) {
            let data = 0b00 << 3 | mask
            var remainder = data
            for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
            let bits = (data << 10 | remainder) ^ 0x5412
            func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
            for index in 0...5 { set(8, index, bit(index)) }
            set(8, 7, bit(6))
            set(8, 8, bit(7))
            set(7, 8, bit(8))
            for index in 9..<15 { set(14 - index, 8, bit(index)) }
            for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
            for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
            set(8, size - 8, true)
        }

        /// §7.7.3: the codewords' bits upwards and downwards in two-module columns from the bottom right, skipping
        /// the vertical timing pattern's column, each data module masked.
        mutating func place(_ codewords: [UInt8], mask: Int) {
            var bitIndex = 0
            var right = size - 1
            var upward = true
            while right > 0 {
                if right == 6 { right -= 1 }
                for step in 0..<size {
                    let y = upward ? size - 1 - step : step
                    for x in [right, right - 1] where !reserved[y][x] {
                        var bit = false
                        if bitIndex < codewords.count * 8 {
                            bit = (codewords[bitIndex / 8] >> (7 - bitIndex % 8)) & 1 == 1
                        }
                        bitIndex += 1
                        dark[y][x] = bit != QRCode.masked(mask, x: x, y: y)
                    }
                }
                upward.toggle()
                right -= 2
            }
        }

        /// §7.8.3: the four penalty rules.
        var penalty: Int {
            var total = 0
            for line in 0..<size {
                for vertical in [false, true] {
                    var run = 1
                    var history: [Bool] = []
                    for index in 0..<size {
                        let module = vertical ? dark[index][line] : dark[line][index]
                        history.append(module)
                        if index > 0 {
                            let previous = vertical ? dark[index - 1][line] : dark[line][index - 1]
                            if module == previous {
                                run += 1
                            } else {
                                if run >= 5 { total += run - 2 }
                                run = 1
                            }
                        }
                    }
                    if run >= 5 { total += run - 2 }
                    // 1:1:3:1:1 with four light modules on a side.
                    let pattern: [Bool] = [true, false, true, true, true, false, true]
                    for start in 0...(size - 7) where Array(history[start..<start + 7]) == pattern {
                        let before = (max(0, start - 4)..<start).allSatisfy { !history[$0] } && start >= 4
                        let after =
                            start + 11 <= size && (start + 7..<start + 11).allSatisfy { !history[$0] }
                        if before || after { total += 40 }
                    }
                }
            }
            for y in 0..<(size - 1) {
                for x in 0..<(size - 1) {
                    let module = dark[y][x]
                    if dark[y][x + 1] == module, dark[y + 1][x] == module, dark[y + 1][x + 1] == module { total += 3 }
                }
            }
            let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
            let percent = darkCount * 100 / (size * size)
            total += abs(percent - 50) / 5 * 10
            return total
        }
    }

    /// §7.8.2 Table 10: whether the module at (x, y) is inverted by mask `mask`.
    static func masked(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (y + x) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (y + x) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (y * x) % 2 + (y * x) % 3 == 0
        case 6: ((y * x) % 2 + (y * x) % 3) % 2 == 0
        default: ((y + x) % 2 + (y * x) % 3) % 2 == 0
        }
    }
}

/// Bits in, most significant first; bytes out.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}

/// Reed-Solomon over GF(2^8) with the QR Code's polynomial x^8 + x^4 + x^3 + x^2 + 1 (§7.5.2).
private enum ReedSolomon {
    static let (exp, log): ([UInt8], [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for index in 0..<255 {
            exp[index] = UInt8(value)
            log[value] = index
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for index in 255..<512 { exp[index] = exp[index - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]]
    }

    /// The generator polynomial of `degree`, coefficients from the highest power down (its leading 1 left out).
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for index in 0..<degree {
            var next = [UInt8](repeating: 0, count: polynomial.count + 1)
            for (position, coefficient) in polynomial.enumerated() {
                next[position] ^= coefficient
                next[position + 1] ^= multiply(coefficient, exp[index])
            }
            polynomial = next
        }
        return Array(polynomial.dropFirst())
    }

    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for (index, coefficient) in generator.enumerated() { remainder[index] ^= multiply(coefficient, factor) }
        }
        return remainder
    }
}
