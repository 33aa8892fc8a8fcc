import MatterCrypto

/// Matter Core §4.20.2 Check-In message (secure channel opcode 0x50, sent unsecured): a Long Idle Time device tells
/// each client registered with it (ICD Management's RegisterClient, §9.16) that it is awake. The payload is
/// `nonce ‖ AES-CCM(counter ‖ application data) ‖ MIC` under the 16-byte key the client registered: the nonce is the
/// first 13 octets of HMAC-SHA-256(key, counter), the counter (ICDCounter, little-endian) rises with every message, so
/// a client tells a new check-in from a replayed one, and only a holder of the key can read or forge one.
public struct CheckInMessage: Hashable, Sendable {
    public static let keyLength = AESCCM.keyLength
    /// Nonce, counter and MIC: a payload with no application data.
    public static let minimumLength = AESCCM.nonceLength + 4 + AESCCM.tagLength
    /// §4.20.2.2: application data is at most 1024 octets.
    public static let maximumApplicationData = 1024

    public var counter: UInt32
    public var applicationData: [UInt8]

    public init(counter: UInt32, applicationData: [UInt8] = []) {
        self.counter = counter
        self.applicationData = applicationData
    }

    /// Why a payload is no check-in under a key.
    public enum Failure: Error, Hashable, Sendable {
        case malformed(String)
        /// Its MIC does not verify under this key (another client's, or altered), or its nonce is not its counter's.
        case notAuthentic
    }

    /// The payload sent under `key`.
    public func sealed(key: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == Self.keyLength else { throw .malformed("a check-in key is \(Self.keyLength) octets") }
        guard applicationData.count <= Self.maximumApplicationData else {
            throw .malformed("check-in application data is at most \(Self.maximumApplicationData) octets")
        }
        let nonce = Self.nonce(key: key, counter: counter)
        do {
            return nonce
                + (try AESCCM.seal(
                    key: key, nonce: nonce, plaintext: Self.littleEndian(counter) + applicationData,
                    additionalData: []))
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// The check-in `payload` carries, when it was sealed under `key`.
    public static func open(_ payload: [UInt8], key: [UInt8]) throws(Failure) -> CheckInMessage {
        guard key.count == keyLength else { throw .malformed("a check-in key is \(keyLength) octets") }
        guard payload.count >= minimumLength, payload.count <= minimumLength + maximumApplicationData else {
            throw .malformed(
                "a check-in payload is \(minimumLength) to \(minimumLength + maximumApplicationData) octets, not \(payload.count)"
            )
        }
        let nonce = Array(payload.prefix(AESCCM.nonceLength))
        let plaintext: [UInt8]
        do {
            plaintext = try AESCCM.open(
                key: key, nonce: nonce, ciphertextAndTag: Array(payload.dropFirst(AESCCM.nonceLength)),
                additionalData: [])
        } catch {
            throw .notAuthentic
        }
        let counter = plaintext.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
        // The nonce must be the counter's: a device never reuses one, and a forged pairing is refused.
        guard nonce == Self.nonce(key: key, counter: counter) else { throw .notAuthentic }
        return CheckInMessage(counter: counter, applicationData: Array(plaintext.dropFirst(4)))
    }

    private static func nonce(key: [UInt8], counter: UInt32) -> [UInt8] {
        Array(HMACSHA256.authenticationCode(key: key, message: littleEndian(counter)).prefix(AESCCM.nonceLength))
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
