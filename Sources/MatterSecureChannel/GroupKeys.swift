import MatterCrypto

// Matter Core §4.17.2 operational group keys, §4.17.3.6 the group session ID (Group Key Hash), §4.9.2 the privacy key.
/// What a group's epoch key becomes on a fabric: the operational group key that encrypts its messages, the group
/// session ID (a hash of that key) that tells a receiver which key to try, and the privacy key that hides a private
/// message's header.
public enum GroupKeys {
    /// HKDF-SHA256(epoch key, salt: the compressed fabric ID, info "GroupKey v1.0", 16 bytes). Key set 0's is the
    /// fabric's identity protection key (`OperationalIdentity.identityProtectionKey`).
    public static func operationalKey(epochKey: [UInt8], compressedFabricID: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard epochKey.count == 16 else { throw .invalidKey("an epoch key is 16 bytes") }
        return try HKDFSHA256.deriveKey(
            inputKeyMaterial: epochKey, salt: compressedFabricID, info: Array("GroupKey v1.0".utf8), outputLength: 16)
    }

    /// HKDF-SHA256(operational group key, no salt, info "GroupKeyHash", 2 bytes), big-endian: the session ID a group
    /// message carries.
    public static func sessionID(operationalKey: [UInt8]) throws(CryptoError) -> UInt16 {
        guard operationalKey.count == 16 else { throw .invalidKey("an operational group key is 16 bytes") }
        let hash = try HKDFSHA256.deriveKey(
            inputKeyMaterial: operationalKey, salt: [], info: Array("GroupKeyHash".utf8), outputLength: 2)
        return UInt16(hash[0]) << 8 | UInt16(hash[1])
    }

    /// HKDF-SHA256(operational group key, no salt, info "PrivacyKey", 16 bytes): derived from the operational key,
    /// not the epoch key.
    public static func privacyKey(operationalKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard operationalKey.count == 16 else { throw .invalidKey("an operational group key is 16 bytes") }
        return try HKDFSHA256.deriveKey(
            inputKeyMaterial: operationalKey, salt: [], info: Array("PrivacyKey".utf8), outputLength: 16)
    }
}
