import MatterTestSupport
import Testing

@testable import MatterCrypto

@Suite struct SHA256Tests {
    // FIPS 180-2 Appendix B examples and the empty-string digest.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func digestMatchesFIPS180Example(message: String, digest: String) {
        #expect(SHA256.hash(Array(message.utf8)) == [UInt8](hex: digest))
    }
}
