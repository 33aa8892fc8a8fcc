import MatterCertificates
import MatterCrypto
import MatterTestSupport
import Testing

struct CertificateSigningRequestTests {
    /// Generated at development time with OpenSSL 3.0.19:
    /// `openssl ecparam -name prime256v1 -genkey -noout -out key.pem`
    /// `openssl req -new -key key.pem -subj "/O=CSR" -outform DER` (openssl req -verify: OK).
    static let openSSLRequest = [UInt8](
        base64: """
            MIHIMHACAQAwDjEMMAoGA1UECgwDQ1NSMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD
            QgAEwkRvpBfyWXh1kDz4JV813oSM4h/R2VOm1wxpo0dtUFbqR44DUpl++TvAb9n7
            5ns+rjTXe0NxOAel41QmunxLPqAAMAoGCCqGSM49BAMCA0gAMEUCIB80EMSVyA4K
            lZgu4Pc9I/6xMrOywSVPpzl6DTsGRceBAiEAm0birMt0smtHkGbjO1/23a/SWUaV
            Ze5OyNrNbA9s4xY=
            """)

    @Test func parsesAndVerifiesAnOpenSSLRequest() throws {
        let request = try CertificateSigningRequest(derEncoded: Self.openSSLRequest)
        #expect(
            request.subject == DistinguishedName([DistinguishedName.Attribute(type: .organizationName, value: "CSR")]))
        // The key as `openssl req -pubkey | openssl ec -pubin -outform DER` prints it.
        #expect(
            request.publicKey
                == [UInt8](
                    hex: """
                        04c2446fa417f2597875903cf8255f35de848ce21fd1d953a6d70c69a3476d5056ea478e0352997ef93bc06fd9fbe67b3eae34d77b43713807a5e35426ba7c4b3e
                        """))
        #expect(request.attributes.isEmpty)
        try request.verifySignature()
    }

    @Test func alteredRequestFailsVerification() throws {
        var bytes = Self.openSSLRequest
        // Offset 22 is inside the subject "CSR": the signed info changes, the signature does not.
        bytes[22] ^= 0x20
        let request = try CertificateSigningRequest(derEncoded: bytes)
        #expect(throws: CertificateError.signatureInvalid) { try request.verifySignature() }
    }

    @Test func builtRequestRoundTripsAndVerifies() throws {
        let key = P256.PrivateKey(using: DeterministicRandom(seed: 7))
        let request = try CertificateSigningRequest(
            subject: DistinguishedName([.commonName("device")]), signingKey: key)
        let parsed = try CertificateSigningRequest(derEncoded: request.derEncoded)
        #expect(parsed == request)
        #expect(parsed.publicKey == key.publicKey.x963Representation)
        #expect(parsed.subject.commonName == "device")
        try parsed.verifySignature()
    }

    @Test func rejectsRequestsThatAreNotVersion1() throws {
        var bytes = Self.openSSLRequest
        // 30 81 c8 30 70 02 01 [00]: the version.
        bytes[7] = 0x01
        #expect(throws: CertificateError.unsupported("certification request version 2; RFC 2986 defines version 1 (0)"))
        {
            try CertificateSigningRequest(derEncoded: bytes)
        }
    }
}
