import MatterCrypto

// Matter Core §4.3.2.2 Compressed Fabric Identifier, §4.15.2 operational group key (the IPK),
// §4.14.2.4 Destination Identifier: how a CASE initiator names the node it wants without revealing it.
public enum OperationalIdentity {
    /// HKDF(root public key without its 0x04 prefix, salt: fabric ID big-endian, "CompressedFabric", 8 bytes).
    public static func compressedFabricID(rootPublicKey: [UInt8], fabricID: UInt64) throws(CryptoError) -> [UInt8] {
        guard rootPublicKey.count == 65, rootPublicKey[0] == 0x04 else {
            throw .invalidKey("root public key must be a 65-byte uncompressed P-256 point")
        }
        return try HKDFSHA256.deriveKey(
            inputKeyMaterial: Array(rootPublicKey[1...]), salt: bigEndian(fabricID),
            info: Array("CompressedFabric".utf8), outputLength: 8
        )
    }

    /// The identity protection key: the fabric's operational group key derived from its epoch key (key set 0).
    public static func identityProtectionKey(
        epochKey: [UInt8], compressedFabricID: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try GroupKeys.operationalKey(epochKey: epochKey, compressedFabricID: compressedFabricID)
    }

    /// HMAC(IPK, initiatorRandom ‖ root public key ‖ fabric ID LE ‖ node ID LE).
    public static func destinationID(
        identityProtectionKey: [UInt8], initiatorRandom: [UInt8], rootPublicKey: [UInt8], fabricID: UInt64,
        nodeID: UInt64
    ) -> [UInt8] {
        HMACSHA256.authenticationCode(
            key: identityProtectionKey,
            message: initiatorRandom + rootPublicKey + littleEndian(fabricID) + littleEndian(nodeID)
        )
    }

    /// "87E1B004E235A130-CD5544AA7B13EF14": the DNS-SD instance name of an operational node (§4.3.1.1).
    public static func instanceName(compressedFabricID: [UInt8], nodeID: UInt64) -> String {
        hex(compressedFabricID) + "-" + hex(bigEndian(nodeID))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}

func littleEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}

func bigEndian(_ value: UInt64) -> [UInt8] {
    littleEndian(value).reversed()
}
