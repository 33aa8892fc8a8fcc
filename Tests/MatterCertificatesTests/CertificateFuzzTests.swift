import MatterCertificates
import Testing

/// Hostile input: the DER parser, the X.509 decoder and the Matter TLV certificate decoder must
/// return or throw, never crash or hang; whatever they accept must re-encode to the same bytes.
@Suite(.timeLimit(.minutes(1))) struct CertificateFuzzTests {
    private static let iterations = 5_000

    @Test func randomBytesIntoDER() throws {
        var generator = SplitMix64(seed: 0xCE27_0001)
        for _ in 0..<Self.iterations {
            var input = (0..<Int.random(in: 0...48, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            // Start most inputs with a SEQUENCE so the parser gets past the first byte often.
            if !input.isEmpty && Bool.random(using: &generator) { input[0] = 0x30 }
            checkDER(input)
        }
    }

    @Test func mutatedCertificatesIntoDERAndX509() throws {
        var generator = SplitMix64(seed: 0xCE27_0002)
        let seeds =
            try CHIPTestCertificates.all.map(\.der) + [TestPAA.noVIDDER, CertificateSigningRequestTests.openSSLRequest]
        for _ in 0..<Self.iterations {
            var input = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                mutate(
                    &input,
                    interesting: [0x00, 0x01, 0x02, 0x1F, 0x30, 0x7F, 0x80, 0x81, 0x82, 0x84, 0xA0, 0xA3, 0xFF],
                    using: &generator)
            }
            checkDER(input)
            _ = try? X509Certificate(derEncoded: input)
            _ = try? CertificateSigningRequest(derEncoded: input)
            if let certificate = try? MatterCertificate(x509DER: input) {
                #expect(try certificate.x509DER() == input)
            }
        }
    }

    @Test func randomBytesIntoMatterTLV() throws {
        var generator = SplitMix64(seed: 0xCE27_0003)
        for _ in 0..<Self.iterations {
            var input = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            if !input.isEmpty && Bool.random(using: &generator) { input[0] = 0x15 }
            try checkTLV(input)
        }
    }

    @Test func mutatedCertificatesIntoMatterTLV() throws {
        var generator = SplitMix64(seed: 0xCE27_0004)
        let seeds = try CHIPTestCertificates.all.map(\.tlv)
        for _ in 0..<Self.iterations {
            var input = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                mutate(
                    &input,
                    interesting: [
                        0x00, 0x01, 0x11, 0x15, 0x16, 0x17, 0x18, 0x24, 0x27, 0x2C, 0x30, 0x35, 0x36, 0x37, 0x80, 0xFF,
                    ], using: &generator)
            }
            try checkTLV(input)
        }
    }

    private func checkDER(_ input: [UInt8]) {
        if let node = try? DERParser.parse(input) {
            #expect(DERWriter.encode(node) == input)
        }
    }

    private func checkTLV(_ input: [UInt8]) throws {
        guard let certificate = try? MatterCertificate(tlv: input) else { return }
        // Accepted certificates re-encode to a canonical form that decodes to the same value.
        #expect(try MatterCertificate(tlv: certificate.tlvEncoded()) == certificate)
        _ = try? certificate.x509DER()
    }

    private func mutate(_ input: inout [UInt8], interesting: [UInt8], using generator: inout SplitMix64) {
        let position = input.isEmpty ? 0 : Int.random(in: 0..<input.count, using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0 where !input.isEmpty:
            input[position] ^= 1 << UInt8.random(in: 0...7, using: &generator)
        case 1 where !input.isEmpty:
            input[position] = interesting[Int.random(in: 0..<interesting.count, using: &generator)]
        case 2 where !input.isEmpty:
            input.remove(at: position)
        case 3:
            input.insert(interesting[Int.random(in: 0..<interesting.count, using: &generator)], at: position)
        default:
            input.removeLast(Int.random(in: 0...min(8, input.count), using: &generator))
        }
    }
}

/// A small seeded generator (Steele, Lea, Flood: SplitMix64) so every run sees the same inputs.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
