import MatterCrypto
import Testing

@testable import MatterMessaging

/// Hands out the same bytes every time, to pin the counter's initial value.
private struct FixedRandom: RandomSource {
    let byte: [UInt8]
    func bytes(_ count: Int) -> [UInt8] { Array(byte.prefix(count)) }
}

@Suite("MessageCounter")
struct MessageCounterTests {
    // §4.5.2: Crypto_DRBG(len = 28) + 1, read little-endian from the random bytes.
    @Test func initialValueIsTwentyEightRandomBitsPlusOne() throws {
        var lowest = MessageCounter(kind: .secureSession, random: FixedRandom(byte: [0, 0, 0, 0]))
        #expect(try lowest.next() == 1)
        var highest = MessageCounter(kind: .secureSession, random: FixedRandom(byte: [0xFF, 0xFF, 0xFF, 0xFF]))
        #expect(try highest.next() == 1 << 28)
        var drawn = MessageCounter(kind: .globalUnencrypted, random: FixedRandom(byte: [0x01, 0x02, 0x03, 0xF4]))
        #expect(try drawn.next() == 0x0403_0201 + 1)
    }

    @Test func seededStartsStayInRange() throws {
        for seed in UInt64(0)..<500 {
            var counter = MessageCounter(kind: .secureSession, random: DeterministicRandom(seed: seed))
            let first = try counter.next()
            #expect((1...(1 << 28)).contains(first))
        }
    }

    @Test func incrementsByOnePerMessage() throws {
        var counter = MessageCounter(kind: .secureSession, startingAt: 41)
        #expect(try counter.next() == 41)
        #expect(try counter.next() == 42)
        #expect(counter.nextValue == 43)
    }

    // §4.5.1.3: a secure session counter never wraps; the session must be re-established.
    @Test func secureSessionCounterIsExhaustedAfterTheLastValue() throws {
        var counter = MessageCounter(kind: .secureSession, startingAt: .max - 1)
        #expect(try counter.next() == .max - 1)
        #expect(try counter.next() == .max)
        #expect(throws: MessageError.counterExhausted) { try counter.next() }
        #expect(throws: MessageError.counterExhausted) { try counter.next() }
    }

    // §4.5.1.1: the global unencrypted counter rolls over.
    @Test func globalUnencryptedCounterRollsOver() throws {
        var counter = MessageCounter(kind: .globalUnencrypted, startingAt: .max)
        #expect(try counter.next() == .max)
        #expect(try counter.next() == 0)
        #expect(try counter.next() == 1)
    }
}
