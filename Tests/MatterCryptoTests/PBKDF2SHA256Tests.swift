import MatterTestSupport
import Testing

@testable import MatterCrypto

@Suite struct PBKDF2SHA256Tests {
    // RFC 7914 §11 PBKDF2-HMAC-SHA256 vectors.
    @Test(arguments: [
        (
            "passwd", "salt", 1,
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
        ),
        (
            "Password", "NaCl", 80000,
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"
        ),
    ])
    func keyMatchesRFC7914(password: String, salt: String, iterations: Int, key: String) throws {
        let derived = try PBKDF2SHA256.deriveKey(
            password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations, outputLength: 64)
        #expect(derived == [UInt8](hex: key))
    }

    // Widely published PBKDF2-HMAC-SHA256 vectors in the style of RFC 6070 (P = "password", S = "salt", dkLen = 32).
    @Test(arguments: [
        (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
        (2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
        (4096, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
    ])
    func keyMatchesPasswordSaltVectors(iterations: Int, key: String) throws {
        let derived = try PBKDF2SHA256.deriveKey(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: iterations, outputLength: 32)
        #expect(derived == [UInt8](hex: key))
    }

    @Test func zeroIterationsOrLengthThrow() {
        #expect(throws: CryptoError.invalidLength("PBKDF2 iteration count 0 is outside 1...2147483647")) {
            try PBKDF2SHA256.deriveKey(password: [], salt: [], iterations: 0, outputLength: 32)
        }
        #expect(throws: CryptoError.invalidLength("PBKDF2 output of 0 bytes is outside 1...2147483647")) {
            try PBKDF2SHA256.deriveKey(password: [], salt: [], iterations: 1, outputLength: 0)
        }
    }
}
