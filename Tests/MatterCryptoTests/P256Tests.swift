import MatterTestSupport
import Testing

@testable import MatterCrypto

@Suite struct P256Tests {
    // RFC 6979 §A.2.5: P-256 key pair.
    static let rfc6979PrivateKey = [UInt8](hex: "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")
    static let rfc6979PublicKey = [UInt8](
        hex: """
            04 60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
               7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299
            """)

    @Test func publicKeyIsDerivedFromRawPrivateKey() throws {
        let key = try P256.PrivateKey(rawRepresentation: Self.rfc6979PrivateKey)
        #expect(key.publicKey.x963Representation == Self.rfc6979PublicKey)
        #expect(key.rawRepresentation == Self.rfc6979PrivateKey)
    }

    // RFC 6979 §A.2.5, ECDSA with SHA-256 over "sample" and "test".
    @Test(arguments: [
        (
            "sample",
            "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
        ),
        (
            "test",
            "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"
        ),
    ])
    func publishedSignatureVerifies(message: String, signature: String) throws {
        let publicKey = try P256.PublicKey(x963Representation: Self.rfc6979PublicKey)
        let signature = try P256.ECDSASignature(rawRepresentation: [UInt8](hex: signature))
        #expect(publicKey.isValidSignature(signature, for: Array(message.utf8)))
        #expect(!publicKey.isValidSignature(signature, for: Array((message + ".").utf8)))
    }

    @Test func signatureRoundTripsAndRejectsOtherMessagesAndKeys() throws {
        let key = P256.PrivateKey(using: DeterministicRandom(seed: 7))
        let message = Array("Matter operational certificate".utf8)
        let signature = try key.signature(for: message)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: message.dropLast() + [0]))
        #expect(!P256.PrivateKey().publicKey.isValidSignature(signature, for: message))
        var altered = signature.rawRepresentation
        altered[40] ^= 0x01
        #expect(!key.publicKey.isValidSignature(try P256.ECDSASignature(rawRepresentation: altered), for: message))
    }

    @Test func rawAndDERRepresentationsRoundTrip() throws {
        // r has its high bit set (needs a 0x00 pad); s starts with 0x01 (no pad).
        let raw = [UInt8](
            hex:
                "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"
        )
        let signature = try P256.ECDSASignature(rawRepresentation: raw)
        let der = signature.derRepresentation
        let header: [UInt8] = [0x30, 0x45, 0x02, 0x21, 0x00]
        let sHeader: [UInt8] = [0x02, 0x20]
        let expected: [UInt8] = header + Array(raw[0..<32]) + sHeader + Array(raw[32..<64])
        #expect(der == expected)
        #expect(try P256.ECDSASignature(derRepresentation: der).rawRepresentation == raw)
    }

    @Test func shortIntegersEncodeMinimally() throws {
        let raw = [UInt8](repeating: 0, count: 31) + [0x7F] + [UInt8](repeating: 0, count: 30) + [0x01, 0x80]
        let der = try P256.ECDSASignature(rawRepresentation: raw).derRepresentation
        #expect(der == [UInt8](hex: "3007 02017F 02020180"))
        #expect(try P256.ECDSASignature(derRepresentation: der).rawRepresentation == raw)
    }

    @Test(arguments: [
        "",  // empty
        "3007 02017F 02020180 00",  // trailing byte
        "3008 0202007F 02020180",  // non-minimal integer
        "3006 02017F 020180",  // negative s
        "3026 0221 01" + String(repeating: "00", count: 32) + " 020101",  // r wider than 32 bytes
        "3008 02017F 02020180",  // length beyond the input
    ])
    func malformedDERIsRejected(hex: String) {
        #expect(throws: CryptoError.invalidSignature) { try P256.ECDSASignature(derRepresentation: [UInt8](hex: hex)) }
    }

    @Test func wrongSizesAreRejected() {
        #expect(throws: CryptoError.invalidLength("raw ECDSA signature is 63 bytes, expected 64")) {
            try P256.ECDSASignature(rawRepresentation: [UInt8](repeating: 1, count: 63))
        }
        #expect(throws: CryptoError.invalidKey("P-256 scalar is 31 bytes, expected 32")) {
            try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: CryptoError.invalidKey("P-256 scalar is zero or not below the group order")) {
            try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32))
        }
        // The group order n itself is not a valid scalar.
        #expect(throws: CryptoError.invalidKey("P-256 scalar is zero or not below the group order")) {
            try P256.PrivateKey(
                rawRepresentation: [UInt8](hex: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"))
        }
    }

    @Test func pointsOffTheCurveAreRejected() {
        var offCurve = Self.rfc6979PublicKey
        offCurve[64] ^= 0x01
        #expect(throws: CryptoError.invalidPoint) { try P256.PublicKey(x963Representation: offCurve) }
        #expect(throws: CryptoError.invalidPoint) {
            try P256.PublicKey(x963Representation: Array(Self.rfc6979PublicKey.prefix(33)))
        }
        var wrongPrefix = Self.rfc6979PublicKey
        wrongPrefix[0] = 0x06
        #expect(throws: CryptoError.invalidPoint) { try P256.PublicKey(x963Representation: wrongPrefix) }
        #expect(throws: CryptoError.invalidPoint) {
            try P256.PublicKey(x963Representation: [0x04] + [UInt8](repeating: 0, count: 64))
        }
    }

    // RFC 5903 §8.1: 256-bit random ECP group, both sides agree on the shared X coordinate.
    @Test func ecdhMatchesRFC5903() throws {
        let initiator = try P256.PrivateKey(
            rawRepresentation: [UInt8](hex: "C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433"))
        let responder = try P256.PrivateKey(
            rawRepresentation: [UInt8](hex: "C6EF9C5D78AE012A011164ACB397CE2088685D8F06BF9BE0B283AB46476BEE53"))
        #expect(
            initiator.publicKey.x963Representation
                == [UInt8](
                    hex: """
                        04 DAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180
                           5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3
                        """))
        #expect(
            responder.publicKey.x963Representation
                == [UInt8](
                    hex: """
                        04 D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63
                           56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB
                        """))
        let shared = [UInt8](hex: "D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE")
        #expect(try initiator.sharedSecret(with: responder.publicKey) == shared)
        #expect(try responder.sharedSecret(with: initiator.publicKey) == shared)
    }

    @Test func generatedKeysAgreeAndDiffer() throws {
        let alice = P256.PrivateKey()
        let bob = P256.PrivateKey()
        #expect(alice.rawRepresentation != bob.rawRepresentation)
        #expect(try alice.sharedSecret(with: bob.publicKey) == bob.sharedSecret(with: alice.publicKey))
    }

    @Test func descriptionsRedactThePrivateKey() throws {
        let key = try P256.PrivateKey(rawRepresentation: Self.rfc6979PrivateKey)
        let secretHex = Self.rfc6979PrivateKey.hexString
        var dumped = ""
        dump(key, to: &dumped)
        for text in [
            key.description, key.debugDescription, String(describing: key), String(reflecting: key), "\(key)", dumped,
        ] {
            #expect(!text.lowercased().contains(secretHex))
            let numbers = text.split { !$0.isNumber }.compactMap { UInt8($0) }
            #expect(!numbers.indices.contains { numbers[$0...].starts(with: Self.rfc6979PrivateKey) })
            #expect(text.contains("redacted") || text.contains("publicKey"))
        }
    }
}
