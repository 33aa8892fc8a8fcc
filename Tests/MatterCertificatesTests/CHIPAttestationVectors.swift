import MatterCertificates

/// connectedhomeip's published test attestation material (Apache-2.0), as facts: the PEM bodies of
/// credentials/test/attestation/Chip-Test-DAC-FFF1-8000-0004-Cert.pem, Chip-Test-PAI-FFF1-8000-Cert.pem,
/// Chip-Test-PAA-FFF1-Cert.pem (the version that signs the PAI), the DAC's private scalar from Chip-Test-DAC-FFF1-8000-0004-Key.pem, and
/// `kCdForAllExamples` of src/credentials/examples/DeviceAttestationCredsExample.cpp: a development-and-test
/// declaration for vendor 0xFFF1, products 0x8000 to 0x8063, device type 0x16, signed with the test CD key.
enum CHIPAttestationVectors {
    static let dac = [UInt8](
        base64: """
            MIIB6TCCAY+gAwIBAgIIOjO0Lc4khfswCgYIKoZIzj0EAwIwRjEYMBYGA1UEAwwP
            TWF0dGVyIFRlc3QgUEFJMRQwEgYKKwYBBAGConwCAQwERkZGMTEUMBIGCisGAQQB
            gqJ8AgIMBDgwMDAwIBcNMjEwNjI4MTQyMzQzWhgPOTk5OTEyMzEyMzU5NTlaMEsx
            HTAbBgNVBAMMFE1hdHRlciBUZXN0IERBQyAwMDA0MRQwEgYKKwYBBAGConwCAQwE
            RkZGMTEUMBIGCisGAQQBgqJ8AgIMBDgwMDAwWTATBgcqhkjOPQIBBggqhkjOPQMB
            BwNCAAQGet9uvxIcWmMIY3H9U4sI6tDrz4KmyWA3oo70Fpp/L2U+ldGYExSF2luA
            BKqjXm99geihARBb9g0isLzgXUvjo2AwXjAMBgNVHRMBAf8EAjAAMA4GA1UdDwEB
            /wQEAwIHgDAdBgNVHQ4EFgQUiWxF3WlrVGrrADUNTi5TaUsp5GgwHwYDVR0jBBgw
            FoAUhPUd/57M2ik1lEhSDoXxKS2j7dcwCgYIKoZIzj0EAwIDSAAwRQIhANr5KwRN
            uihgZwbT9mYZw+OYXYtTtk/2woRiS9D3sP9XAiAcwadAERG2zMnxft7+V3dxo2BU
            pdxKh+NnPamW+k6k8Q==
            """)
    static let pai = [UInt8](
        base64: """
            MIIBxDCCAWmgAwIBAgIIBXAmqJAFs6UwCgYIKoZIzj0EAwIwHzEdMBsGA1UEAwwU
            TWF0dGVyIFRlc3QgUEFBIEZGRjEwIBcNMjEwNjI4MTQyMzQzWhgPOTk5OTEyMzEy
            MzU5NTlaMEYxGDAWBgNVBAMMD01hdHRlciBUZXN0IFBBSTEUMBIGCisGAQQBgqJ8
            AgEMBEZGRjExFDASBgorBgEEAYKifAICDAQ4MDAwMFkwEwYHKoZIzj0CAQYIKoZI
            zj0DAQcDQgAEynPORkG/CDtKM42gQxoKMjB/ZtFgV0tmEi8lBs9q03Djf2XWNHrn
            l6GXJlBQl200rHtjezvaC1vYQ+2OXV6b8qNmMGQwEgYDVR0TAQH/BAgwBgEB/wIB
            ADAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFIT1Hf+ezNopNZRIUg6F8Skto+3X
            MB8GA1UdIwQYMBaAFO8Y4OzUZgQ03w28kR7UUhaZZoOfMAoGCCqGSM49BAMCA0kA
            MEYCIQCZOYY4qq/OMNuma0XvCumxHeticRSrWCzbghtPf/+52AIhALMhsOr2dfqj
            LAR0nHmPYGs7IsEmZd/UE/nWxCSo/868
            """)
    static let paa = [UInt8](
        base64: """
            MIIBnTCCAUKgAwIBAgIIPkgLCCqFJx8wCgYIKoZIzj0EAwIwHzEdMBsGA1UEAwwU
            TWF0dGVyIFRlc3QgUEFBIEZGRjEwIBcNMjEwNjI4MTQyMzQzWhgPOTk5OTEyMzEy
            MzU5NTlaMB8xHTAbBgNVBAMMFE1hdHRlciBUZXN0IFBBQSBGRkYxMFkwEwYHKoZI
            zj0CAQYIKoZIzj0DAQcDQgAEG5isW7wR3GoXVaBbCsXha6AsRu5vwrvnb/fPbKeq
            Tp/R15jcvvtP6uIl03c8kTSMwm1JMTHjCWMtXp7zHRLek6NmMGQwEgYDVR0TAQH/
            BAgwBgEB/wIBATAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFO8Y4OzUZgQ03w28
            kR7UUhaZZoOfMB8GA1UdIwQYMBaAFO8Y4OzUZgQ03w28kR7UUhaZZoOfMAoGCCqG
            SM49BAMCA0kAMEYCIQDHQclgaMyReHFBbWrBPNiduu+Y+umYSwdnYoLTA7ksBgIh
            AKnXTWyUsSlCjlMtA1NSh6ay249U8Jy0xzHWv0PLW8pC
            """)
    /// An earlier Chip-Test-PAA-FFF1-Cert.pem (another key, valid until 2041-06-28T14:23:42Z): not the PAI's issuer.
    static let retiredPAA = [UInt8](
        base64: """
            MIIBlzCCAT2gAwIBAgIIYwzoqkaJ0oswCgYIKoZIzj0EAwIwHzEdMBsGA1UEAwwU
            TWF0dGVyIFRlc3QgUEFBIEZGRjEwHhcNMjEwNjI4MTQyMzQzWhcNNDEwNjI4MTQy
            MzQyWjAfMR0wGwYDVQQDDBRNYXR0ZXIgVGVzdCBQQUEgRkZGMTBZMBMGByqGSM49
            AgEGCCqGSM49AwEHA0IABCZWek7mw+ydJL2fTOfW4lfV1AmeFiSeumsku/+1yRNW
            NO3XG/U4EJpcK5QZqp54c0SQGQznM1+142I8cl7MdpqjYzBhMA8GA1UdEwEB/wQF
            MAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBRrelhB3iUDzkEGgKRDEymH
            egYd8DAfBgNVHSMEGDAWgBRrelhB3iUDzkEGgKRDEymHegYd8DAKBggqhkjOPQQD
            AgNIADBFAiEAjwDTY+13fdPJ9In1CMWyzo4HZgBkVboqU4ckW0R0oR8CIB/kBoOW
            TUpFFXv6vt6bYYqvuBlxiM/yACV6jj3gN8a1
            """)
    static let dacPrivateKey = [UInt8](hex: "8c2a6b4d0d32609e00043e90703d50baaedac8b172ebd37cd209c000f0fafc23")
    static let certificationDeclaration = [UInt8](
        hex: """
            3082021906092a864886f70d010702a082020a30820206020103310d300b0609
            6086480165030402013082017106092a864886f70d010701a08201620482015e
            152400012501f1ff360205008005018005028005038005048005058005068005
            0780050880050980050a80050b80050c80050d80050e80050f80051080051180
            051280051380051480051580051680051780051880051980051a80051b80051c
            80051d80051e80051f8005208005218005228005238005248005258005268005
            2780052880052980052a80052b80052c80052d80052e80052f80053080053180
            053280053380053480053580053680053780053880053980053a80053b80053c
            80053d80053e80053f8005408005418005428005438005448005458005468005
            4780054880054980054a80054b80054c80054d80054e80054f80055080055180
            055280055380055480055580055680055780055880055980055a80055b80055c
            80055d80055e80055f80056080056180056280056380182403162c04135a4947
            32303134325a423333303030332d32342405002406002507942624080018317d
            307b020103801462fa823359acfaa9963e1cfa140addf504f37160300b060960
            8648016503040201300a06082a8648ce3d04030204473045022024e5d1f47a7d
            7b0d206a26ef699b7c9757b72d469089de3192e678c745e7f60c022100f8aa2f
            a711fcb79b97e397ceda667bae464e2bd3ffdfc3cced7aa8ca5f4c1a7c
            """)

    /// The CD signing certificates quoted in src/credentials/attestation_verifier/DefaultDeviceAttestationVerifier.cpp:
    /// "Matter Test CD Signing Authority" and the CSA's "Certification Declaration Signing Key 001" to "005".
    static let declarationSigners: [(name: String, der: [UInt8])] = [
        (
            "test",
            [UInt8](
                base64: """
                    MIIBszCCAVqgAwIBAgIIRdrzneR6oI8wCgYIKoZIzj0EAwIwKzEpMCcGA1UEAwwg
                    TWF0dGVyIFRlc3QgQ0QgU2lnbmluZyBBdXRob3JpdHkwIBcNMjEwNjI4MTQyMzQz
                    WhgPOTk5OTEyMzEyMzU5NTlaMCsxKTAnBgNVBAMMIE1hdHRlciBUZXN0IENEIFNp
                    Z25pbmcgQXV0aG9yaXR5MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEPDmJIkUr
                    VcrzicJb0bykZWlSzLkOiGkkmthHRlMBTL+V1oeWXgNrUhxRA35rjO3vyh60QEZp
                    T6CIgu7WUZ3suqNmMGQwEgYDVR0TAQH/BAgwBgEB/wIBATAOBgNVHQ8BAf8EBAMC
                    AQYwHQYDVR0OBBYEFGL6gjNZrPqplj4c+hQK3fUE83FgMB8GA1UdIwQYMBaAFGL6
                    gjNZrPqplj4c+hQK3fUE83FgMAoGCCqGSM49BAMCA0cAMEQCICxUXOTkV9im8NnZ
                    u+vW7OHd/n+MbZps83UyH8b6xxOEAiBUB3jodDlyUn7t669YaGIgtUB48s1OYqdq
                    58u5L/VMiw==
                    """)
        ),
        (
            "001",
            [UInt8](
                base64: """
                    MIICBzCCAa2gAwIBAgIHY3NhY2RrMTAKBggqhkjOPQQDAjBSMQwwCgYDVQQKDAND
                    U0ExLDAqBgNVBAMMI01hdHRlciBDZXJ0aWZpY2F0aW9uIGFuZCBUZXN0aW5nIENB
                    MRQwEgYKKwYBBAGConwCAQwEQzVBMDAgFw0yMjEwMDMxOTI4NTVaGA8yMDcyMDky
                    MDE5Mjg1NVowWDEMMAoGA1UECgwDQ1NBMTIwMAYDVQQDDClDZXJ0aWZpY2F0aW9u
                    IERlY2xhcmF0aW9uIFNpZ25pbmcgS2V5IDAwMTEUMBIGCisGAQQBgqJ8AgEMBEM1
                    QTAwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATN7uk+RPi3K+PRqcB+IZaLmv/z
                    tAPwXhZp17Hlyu5vx3FLQufiNpXpLNdjVHOigK5ojze7lInhFim5uU/3sJkpo2Yw
                    ZDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBhjAdBgNVHQ4EFgQU
                    /jQ/lZlHdjth7kU5ExM4SU/mfY4wHwYDVR0jBBgwFoAUl+Rp0MUEFMJvxwH3fpR3
                    OQmN9qUwCgYIKoZIzj0EAwIDSAAwRQIgEDWOcdKsVGtUh3evHbBd1lq4aS7yQtOp
                    6GrOQ3/zXBsCIQDxorh2RXSaI8m2RCcoWaiWa0nLzQepNm3C2jrQVJmC2Q==
                    """)
        ),
        (
            "002",
            [UInt8](
                base64: """
                    MIICCDCCAa2gAwIBAgIHY3NhY2RrMjAKBggqhkjOPQQDAjBSMQwwCgYDVQQKDAND
                    U0ExLDAqBgNVBAMMI01hdHRlciBDZXJ0aWZpY2F0aW9uIGFuZCBUZXN0aW5nIENB
                    MRQwEgYKKwYBBAGConwCAQwEQzVBMDAgFw0yMjEwMDMxOTM2NDZaGA8yMDcyMDky
                    MDE5MzY0NlowWDEMMAoGA1UECgwDQ1NBMTIwMAYDVQQDDClDZXJ0aWZpY2F0aW9u
                    IERlY2xhcmF0aW9uIFNpZ25pbmcgS2V5IDAwMjEUMBIGCisGAQQBgqJ8AgEMBEM1
                    QTAwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQDGTfo+UJRBF3ydFe7RiU+43VO
                    jBKuKFV9gCe51MNW2RtAjP8yJ1AXsl+Mi6IFFtXIOvK3JBKAE9/Mj5XSAKkLo2Yw
                    ZDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBhjAdBgNVHQ4EFgQU
                    3QTbWFshTBxYFYfmVo30h7bdxwEwHwYDVR0jBBgwFoAUl+Rp0MUEFMJvxwH3fpR3
                    OQmN9qUwCgYIKoZIzj0EAwIDSQAwRgIhAJruzxZ806cP/LoQ07PN9xAbjLdwUalV
                    h0Qfx304Tb92AiEAk+jnf2qtyfKyTEHpT3Xf3bfekqUOA+8ikB1yjL5oTsI=
                    """)
        ),
        (
            "003",
            [UInt8](
                base64: """
                    MIICBjCCAa2gAwIBAgIHY3NhY2RrMzAKBggqhkjOPQQDAjBSMQwwCgYDVQQKDAND
                    U0ExLDAqBgNVBAMMI01hdHRlciBDZXJ0aWZpY2F0aW9uIGFuZCBUZXN0aW5nIENB
                    MRQwEgYKKwYBBAGConwCAQwEQzVBMDAgFw0yMjEwMDMxOTQxMDFaGA8yMDcyMDky
                    MDE5NDEwMVowWDEMMAoGA1UECgwDQ1NBMTIwMAYDVQQDDClDZXJ0aWZpY2F0aW9u
                    IERlY2xhcmF0aW9uIFNpZ25pbmcgS2V5IDAwMzEUMBIGCisGAQQBgqJ8AgEMBEM1
                    QTAwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASfV1zV/bdSHxCk3zHwc5ErYUco
                    8tN/W2uWvCy/fAsRlpBXfVVdIaCWYKiwgqM56lMPeoEthpO1b9dkGF+rzTL1o2Yw
                    ZDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBhjAdBgNVHQ4EFgQU
                    RxA158BOqqi+fE1ME+PkwgmVqEswHwYDVR0jBBgwFoAUl+Rp0MUEFMJvxwH3fpR3
                    OQmN9qUwCgYIKoZIzj0EAwIDRwAwRAIgIFecbY+1mVVNqxH9+8IMB8+safdyIJU2
                    AqqtZ/w7AkQCIHiVlYTaCnJsnW5/cvj9GfIv7Eb0cjdmcAkrYGbnPQzX
                    """)
        ),
        (
            "004",
            [UInt8](
                base64: """
                    MIICBjCCAa2gAwIBAgIHY3NhY2RrNDAKBggqhkjOPQQDAjBSMQwwCgYDVQQKDAND
                    U0ExLDAqBgNVBAMMI01hdHRlciBDZXJ0aWZpY2F0aW9uIGFuZCBUZXN0aW5nIENB
                    MRQwEgYKKwYBBAGConwCAQwEQzVBMDAgFw0yMjEwMDMxOTQzMjFaGA8yMDcyMDky
                    MDE5NDMyMVowWDEMMAoGA1UECgwDQ1NBMTIwMAYDVQQDDClDZXJ0aWZpY2F0aW9u
                    IERlY2xhcmF0aW9uIFNpZ25pbmcgS2V5IDAwNDEUMBIGCisGAQQBgqJ8AgEMBEM1
                    QTAwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAR8/I2IEKic9PoZF3jyr+x4+FF6
                    l6Plf8ITutiI42EedP+2hL3rqKaLJSNKXDWPNzurm20wThMG3XYgpSjRFhwLo2Yw
                    ZDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBhjAdBgNVHQ4EFgQU
                    9oYDo2kumBByQZ6h4as4VL13ldMwHwYDVR0jBBgwFoAUl+Rp0MUEFMJvxwH3fpR3
                    OQmN9qUwCgYIKoZIzj0EAwIDRwAwRAIgLqAfkbtLYYdmQsnbn0CWv3G1/lbE36nz
                    HbLbW5t6PY4CIE8oyIHsVhNSTPcb3mwRp+Vxhs8tKhbAdwv5BGgDaAHj
                    """)
        ),
        (
            "005",
            [UInt8](
                base64: """
                    MIICBzCCAa2gAwIBAgIHY3NhY2RrNTAKBggqhkjOPQQDAjBSMQwwCgYDVQQKDAND
                    U0ExLDAqBgNVBAMMI01hdHRlciBDZXJ0aWZpY2F0aW9uIGFuZCBUZXN0aW5nIENB
                    MRQwEgYKKwYBBAGConwCAQwEQzVBMDAgFw0yMjEwMDMxOTQ3MTVaGA8yMDcyMDky
                    MDE5NDcxNVowWDEMMAoGA1UECgwDQ1NBMTIwMAYDVQQDDClDZXJ0aWZpY2F0aW9u
                    IERlY2xhcmF0aW9uIFNpZ25pbmcgS2V5IDAwNTEUMBIGCisGAQQBgqJ8AgEMBEM1
                    QTAwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARDilLGYqKm1yZH+V63UxNu5K4P
                    2zqpwWkxQms9CGf5EDrn16G4h+n4E6byb3a7zak1k3h8EneMqPKXXcRaIEL5o2Yw
                    ZDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBhjAdBgNVHQ4EFgQU
                    Y38mNK1i6v5q9mLvuW9v0vy//C8wHwYDVR0jBBgwFoAUl+Rp0MUEFMJvxwH3fpR3
                    OQmN9qUwCgYIKoZIzj0EAwIDSAAwRQIhAM1HQpvkHKxLJByWaSYAPRZgh3Bis18W
                    AViq7c/mtzEAAiBZO0lVe6Qo9iQPIBWZaVx/S/YSNO9uKNa/pvFu3V+nIg==
                    """)
        ),
    ]
}
