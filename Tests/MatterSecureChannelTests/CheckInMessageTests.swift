import MatterCrypto
import MatterSecureChannel
import Testing

/// The Check-In message against connectedhomeip's test vectors (src/protocols/secure_channel/tests/
/// CheckIn_Message_test_vectors.h, vectors 1 and 2), and what a client refuses.
struct CheckInMessageTests {
    struct Vector: Sendable {
        let key: [UInt8]
        let applicationData: [UInt8]
        let counter: UInt32
        let payload: [UInt8]
    }

    static let vectors = [
        Vector(
            key: [0xD9, 0x0E, 0x13, 0x18, 0x0D, 0x00, 0xBA, 0xAD, 0xD2, 0x0C, 0xF5, 0xED, 0x49, 0x13, 0xD3, 0xFF],
            applicationData: [], counter: 12,
            payload: [
                0x45, 0x80, 0xD2, 0xC6, 0xF1, 0x31, 0x0D, 0xC4, 0xEB, 0x64, 0xF1, 0xF8, 0xE8, 0xBD, 0xC2, 0x1F, 0xB5,
                0x19, 0x5D, 0x74, 0x7D, 0xD2, 0x87, 0x9B, 0x2B, 0x0D, 0x43, 0xCE, 0x5B, 0x1C, 0x56, 0x50, 0x78,
            ]),
        Vector(
            key: [0x18, 0xFD, 0xBC, 0xEA, 0xEF, 0x01, 0x95, 0x5B, 0x0E, 0xC8, 0x75, 0xED, 0xA3, 0xAE, 0x6E, 0xE8],
            applicationData: [0x54, 0x68, 0x69, 0x73], counter: 15,
            payload: [
                0x9B, 0x02, 0xED, 0x21, 0xEE, 0x0C, 0x7B, 0x49, 0x19, 0x85, 0x50, 0x2E, 0x37, 0x2D, 0xBD, 0x7B, 0x3F,
                0x8B, 0x4F, 0x8E, 0x3C, 0x5A, 0xD9, 0x94, 0x19, 0x38, 0x9F, 0x41, 0xA8, 0xD6, 0x09, 0x93, 0x8C, 0x67,
                0xA8, 0x6D, 0x65,
            ]),
    ]

    @Test(arguments: vectors)
    func sealsAndOpensAsConnectedhomeipDoes(vector: Vector) throws {
        let message = CheckInMessage(counter: vector.counter, applicationData: vector.applicationData)
        #expect(try message.sealed(key: vector.key) == vector.payload)
        #expect(try CheckInMessage.open(vector.payload, key: vector.key) == message)
    }

    @Test func anotherKeyAnAlteredByteOrACutPayloadIsRefused() throws {
        let vector = Self.vectors[1]
        #expect(throws: CheckInMessage.Failure.notAuthentic) {
            try CheckInMessage.open(vector.payload, key: Self.vectors[0].key)
        }
        var altered = vector.payload
        altered[15] ^= 0x01
        #expect(throws: CheckInMessage.Failure.notAuthentic) { try CheckInMessage.open(altered, key: vector.key) }
        #expect(throws: CheckInMessage.Failure.self) {
            try CheckInMessage.open(Array(vector.payload.prefix(CheckInMessage.minimumLength - 1)), key: vector.key)
        }
    }

    /// A payload whose nonce is not its own counter's (connectedhomeip's "invalid counter / nonce match" case): the
    /// MIC verifies, the pairing does not.
    @Test func aNonceThatIsNotTheCountersIsRefused() throws {
        let key = Self.vectors[0].key
        let sealed = try CheckInMessage(counter: 7).sealed(key: key)
        let otherNonce = try CheckInMessage(counter: 8).sealed(key: key).prefix(13)
        // Re-sealing under the other nonce gives a payload that verifies but names counter 7.
        let forged =
            Array(otherNonce)
            + (try AESCCM.seal(key: key, nonce: Array(otherNonce), plaintext: [7, 0, 0, 0], additionalData: []))
        #expect(try CheckInMessage.open(sealed, key: key).counter == 7)
        #expect(throws: CheckInMessage.Failure.notAuthentic) { try CheckInMessage.open(forged, key: key) }
    }
}
