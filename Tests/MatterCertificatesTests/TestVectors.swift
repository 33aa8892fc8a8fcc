import MatterCertificates
import MatterTestSupport
import Testing

/// Test vectors are written as hex strings, as the specifications and RFCs print them.
/// A published certificate in both forms.
struct CertificateVector: Sendable, CustomTestStringConvertible {
    let name: String
    let tlv: [UInt8]
    let der: [UInt8]
    /// The public key of the certificate's issuer (its own for a root).
    let issuerPublicKey: [UInt8]

    var testDescription: String { name }
}

/// connectedhomeip's test certificates (src/credentials/tests/CHIPCert_test_vectors.cpp): the
/// `_Chip` arrays as hex and the PEM bodies of the `_DER` forms. Root01 signs ICA01, ICA01 signs
/// Node01_01; Root03 never expires; FWSign01 (issued by ICA01_1) carries a common name and codeSigning.
enum CHIPTestCertificates {
    static let root01TLV = [UInt8](
        hex: """
            15300108534c4582736235142402013703271401000000cacacaca182604ef17
            1b2726056eb5b94c3706271401000000cacacaca18240701240801300941043b
            88460ec9687a5d0f3b4b3b13fcd299c2f6d5051d003ee49c9924cf98f4f780eb
            20fd37c8d358347f5f87d08c3213e540af11bab9137e49354f0c5b6343de6337
            0a3501290118240260300414cc1308af82cfee505eb23b57bfe86a311665535f
            300514cc1308af82cfee505eb23b57bfe86a311665535f18300b40f7f0092690
            494e46c8b1c5cbd1a5085e1e65d4360f98e96c4e8e495dc5e216d0bfa23d8f57
            470d89fddaf03f0464b0ae8e1f956d6f67a31124385824689780a918
            """)
    static let root01DER = [UInt8](
        base64: """
            MIIBnjCCAUOgAwIBAgIIU0xFgnNiNRQwCgYIKoZIzj0EAwIwIjEgMB4GCisGAQQB
            gqJ8AQQMEENBQ0FDQUNBMDAwMDAwMDEwHhcNMjAxMDE1MTQyMzQzWhcNNDAxMDE1
            MTQyMzQyWjAiMSAwHgYKKwYBBAGConwBBAwQQ0FDQUNBQ0EwMDAwMDAwMTBZMBMG
            ByqGSM49AgEGCCqGSM49AwEHA0IABDuIRg7JaHpdDztLOxP80pnC9tUFHQA+5JyZ
            JM+Y9PeA6yD9N8jTWDR/X4fQjDIT5UCvEbq5E35JNU8MW2ND3mOjYzBhMA8GA1Ud
            EwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBTMEwivgs/uUF6y
            O1e/6GoxFmVTXzAfBgNVHSMEGDAWgBTMEwivgs/uUF6yO1e/6GoxFmVTXzAKBggq
            hkjOPQQDAgNJADBGAiEA9/AJJpBJTkbIscXL0aUIXh5l1DYPmOlsTo5JXcXiFtAC
            IQC/oj2PV0cNif3a8D8EZLCujh+VbW9noxEkOFgkaJeAqQ==
            """)
    static let ica01TLV = [UInt8](
        hex: """
            1530010869d86a8d80fc8f5d2402013703271401000000cacacaca182604ef17
            1b2726056eb5b94c3706271303000000cacacaca18240701240801300941045f
            94f57e0b13c9cfcf96dfe1fce7888d564cc209c55c4508e44dcf16ba2e09662f
            9eecf19f40b0e88a0b2815da9ee10a3a177c251f434f5b0f263ce7de6278c637
            0a3501290118240260300414440cc69231c4cb5b37942426f81bbe24b7ef345c
            300514cc1308af82cfee505eb23b57bfe86a311665535f18300b40adb85b5d68
            cbfd36140d8c9d129014c45fa7ca191f34d9af241db71736e60f44199bc07c7f
            795bed81a2e77dc5342576f6a0d14198f46b910749427c2eed659c18
            """)
    static let ica01DER = [UInt8](
        base64: """
            MIIBnTCCAUOgAwIBAgIIadhqjYD8j10wCgYIKoZIzj0EAwIwIjEgMB4GCisGAQQB
            gqJ8AQQMEENBQ0FDQUNBMDAwMDAwMDEwHhcNMjAxMDE1MTQyMzQzWhcNNDAxMDE1
            MTQyMzQyWjAiMSAwHgYKKwYBBAGConwBAwwQQ0FDQUNBQ0EwMDAwMDAwMzBZMBMG
            ByqGSM49AgEGCCqGSM49AwEHA0IABF+U9X4LE8nPz5bf4fzniI1WTMIJxVxFCORN
            zxa6LglmL57s8Z9AsOiKCygV2p7hCjoXfCUfQ09bDyY8595ieMajYzBhMA8GA1Ud
            EwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBREDMaSMcTLWzeU
            JCb4G74kt+80XDAfBgNVHSMEGDAWgBTMEwivgs/uUF6yO1e/6GoxFmVTXzAKBggq
            hkjOPQQDAgNIADBFAiEArbhbXWjL/TYUDYydEpAUxF+nyhkfNNmvJB23FzbmD0QC
            IBmbwHx/eVvtgaLnfcU0JXb2oNFBmPRrkQdJQnwu7WWc
            """)
    static let node0101TLV = [UInt8](
        hex: """
            1530010818e969ba0e089e232402013703271303000000cacacaca182604ef17
            1b2726056eb5b94c3706271101000100dededede27151d0000000000b0fa1824
            070124080130094104bcf6580d2d71e14416651f7c311b5efcf9aec0a8c10af8
            0927844c240f51a8eb23fa0744138887ac1e73cb72a054b6a0db0622aa807071
            016313b1596c8552cf370a3501280118240201360304020401183004146967c9
            12f8a3e689556f899b65d76f53fa65c7b6300514440cc69231c4cb5b37942426
            f81bbe24b7ef345c18300b40ce6ef393cbbc94f80ee290cb3c3d373335bab959
            07734d99d384a62a373b8484e1d41a04c3140faa19e8a2b99b0c61e33c27ea91
            3973e45b5bc6e39c270dac5318
            """)
    static let node0101DER = [UInt8](
        base64: """
            MIIB4TCCAYagAwIBAgIIGOlpug4IniMwCgYIKoZIzj0EAwIwIjEgMB4GCisGAQQB
            gqJ8AQMMEENBQ0FDQUNBMDAwMDAwMDMwHhcNMjAxMDE1MTQyMzQzWhcNNDAxMDE1
            MTQyMzQyWjBEMSAwHgYKKwYBBAGConwBAQwQREVERURFREUwMDAxMDAwMTEgMB4G
            CisGAQQBgqJ8AQUMEEZBQjAwMDAwMDAwMDAwMUQwWTATBgcqhkjOPQIBBggqhkjO
            PQMBBwNCAAS89lgNLXHhRBZlH3wxG178+a7AqMEK+AknhEwkD1Go6yP6B0QTiIes
            HnPLcqBUtqDbBiKqgHBxAWMTsVlshVLPo4GDMIGAMAwGA1UdEwEB/wQCMAAwDgYD
            VR0PAQH/BAQDAgeAMCAGA1UdJQEB/wQWMBQGCCsGAQUFBwMCBggrBgEFBQcDATAd
            BgNVHQ4EFgQUaWfJEvij5olVb4mbZddvU/plx7YwHwYDVR0jBBgwFoAURAzGkjHE
            y1s3lCQm+Bu+JLfvNFwwCgYIKoZIzj0EAwIDSQAwRgIhAM5u85PLvJT4DuKQyzw9
            NzM1urlZB3NNmdOEpio3O4SEAiEA4dQaBMMUD6oZ6KK5mwxh4zwn6pE5c+RbW8bj
            nCcNrFM=
            """)
    static let root03TLV = [UInt8](
        hex: """
            153001086b787a6dfcd4bf812402013703271402000000cacacaca27151d0000
            000000b0fa182604ef171b272405003706271402000000cacacaca27151d0000
            000000b0fa18240701240801300941047105408a85a9d9a08af8b77077db388b
            7ea43897dcdfd316f24f0a7e71de69a50c44550c0c9da2361cd829e55fdd63cc
            f579ed44e02208b4f825fcd6f0682c02370a3501290124020118240260300414
            ff87f3cdd2069aef8d5d32eba3163b9eb00a0029300514ff87f3cdd2069aef8d
            5d32eba3163b9eb00a002918300b4075f670eb3545b99786466799ebea4051a3
            41af2a9b677fd71b4c3d4e68093b665f2842cb7ed3199c9ad7c9627947a18a92
            168afcd65f3e9caf6eedfa9e60c52f18
            """)
    static let root03DER = [UInt8](
        base64: """
            MIIB5TCCAYygAwIBAgIIa3h6bfzUv4EwCgYIKoZIzj0EAwIwRDEgMB4GCisGAQQB
            gqJ8AQQMEENBQ0FDQUNBMDAwMDAwMDIxIDAeBgorBgEEAYKifAEFDBBGQUIwMDAw
            MDAwMDAwMDFEMCAXDTIwMTAxNTE0MjM0M1oYDzk5OTkxMjMxMjM1OTU5WjBEMSAw
            HgYKKwYBBAGConwBBAwQQ0FDQUNBQ0EwMDAwMDAwMjEgMB4GCisGAQQBgqJ8AQUM
            EEZBQjAwMDAwMDAwMDAwMUQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARxBUCK
            hanZoIr4t3B32ziLfqQ4l9zf0xbyTwp+cd5ppQxEVQwMnaI2HNgp5V/dY8z1ee1E
            4CIItPgl/NbwaCwCo2YwZDASBgNVHRMBAf8ECDAGAQH/AgEBMA4GA1UdDwEB/wQE
            AwIBBjAdBgNVHQ4EFgQU/4fzzdIGmu+NXTLroxY7nrAKACkwHwYDVR0jBBgwFoAU
            /4fzzdIGmu+NXTLroxY7nrAKACkwCgYIKoZIzj0EAwIDRwAwRAIgdfZw6zVFuZeG
            RmeZ6+pAUaNBryqbZ3/XG0w9TmgJO2YCIF8oQst+0xmcmtfJYnlHoYqSFor81l8+
            nK9u7fqeYMUv
            """)
    static let fwSign01TLV = [UInt8](
        hex: """
            153001087a602b092372c1f82402013703271305000000cacacaca182604ef17
            1b2726056eb5b94c3706271201000000ffffffff2c010f4657205349474e2043
            4552542030311824070124080130094104fd2ae40a747c6d5ac6c8dc79612b9a
            853c3e0fb41c94ff085b4e1d0224859865ea6c7d67bb888434a60d420fd2b99e
            942b6af8a50f1276535c4ff0326179dd78370a35012801182402013603040318
            3004145225d583fb718a7c6451fdaf922acd2d361005c7300514506fc3fcb794
            1588ea736c20652e5f1b11701c6a18300b40ed3ea416ed19690de52b38666d5a
            7be6e66209af294ea463b4951cadd7c46f5aa74a4d560f897d5365a89fde38f3
            f9117248391cf5bc7616f699085933d563c918
            """)
    static let fwSign01DER = [UInt8](
        base64: """
            MIIBzTCCAXKgAwIBAgIIemArCSNywfgwCgYIKoZIzj0EAwIwIjEgMB4GCisGAQQB
            gqJ8AQMMEENBQ0FDQUNBMDAwMDAwMDUwHhcNMjAxMDE1MTQyMzQzWhcNNDAxMDE1
            MTQyMzQyWjA8MSAwHgYKKwYBBAGConwBAgwQRkZGRkZGRkYwMDAwMDAwMTEYMBYG
            A1UEAwwPRlcgU0lHTiBDRVJUIDAxMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
            /SrkCnR8bVrGyNx5YSuahTw+D7QclP8IW04dAiSFmGXqbH1nu4iENKYNQg/SuZ6U
            K2r4pQ8SdlNcT/AyYXndeKN4MHYwDAYDVR0TAQH/BAIwADAOBgNVHQ8BAf8EBAMC
            B4AwFgYDVR0lAQH/BAwwCgYIKwYBBQUHAwMwHQYDVR0OBBYEFFIl1YP7cYp8ZFH9
            r5IqzS02EAXHMB8GA1UdIwQYMBaAFFBvw/y3lBWI6nNsIGUuXxsRcBxqMAoGCCqG
            SM49BAMCA0kAMEYCIQDtPqQW7RlpDeUrOGZtWnvm5mIJrylOpGO0lRyt18RvWgIh
            AKdKTVYPiX1TZaif3jjz+RFySDkc9bx2FvaZCFkz1WPJ
            """)
    static let ica011PublicKey = [UInt8](
        hex: """
            04e1d53a9c257ae32bab05778906031391b58adf9f8ab26938adebf1396cf12c4a
            4145bad85e92eb7f3b37d5da69d0cf604c41c4964fad2d704568d6be8cafdaee
            """)

    static var all: [CertificateVector] {
        get throws {
            let root01Key = try X509Certificate(derEncoded: root01DER).publicKey
            let ica01Key = try X509Certificate(derEncoded: ica01DER).publicKey
            let root03Key = try X509Certificate(derEncoded: root03DER).publicKey
            return [
                CertificateVector(name: "Root01", tlv: root01TLV, der: root01DER, issuerPublicKey: root01Key),
                CertificateVector(name: "ICA01", tlv: ica01TLV, der: ica01DER, issuerPublicKey: root01Key),
                CertificateVector(name: "Node01_01", tlv: node0101TLV, der: node0101DER, issuerPublicKey: ica01Key),
                CertificateVector(name: "Root03", tlv: root03TLV, der: root03DER, issuerPublicKey: root03Key),
                CertificateVector(
                    name: "FWSign01", tlv: fwSign01TLV, der: fwSign01DER, issuerPublicKey: ica011PublicKey),
            ]
        }
    }
}

/// Matter's test PAA without a vendor ID (connectedhomeip credentials/test/attestation/Chip-Test-PAA-NoVID-Cert.pem).
enum TestPAA {
    static let noVIDDER = [UInt8](
        base64: """
            MIIBkTCCATegAwIBAgIHC4+6qN2G7jAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA9N
            YXR0ZXIgVGVzdCBQQUEwIBcNMjEwNjI4MTQyMzQzWhgPOTk5OTEyMzEyMzU5NTla
            MBoxGDAWBgNVBAMMD01hdHRlciBUZXN0IFBBQTBZMBMGByqGSM49AgEGCCqGSM49
            AwEHA0IABBDvAqgah7aBIfuo0xl4+AejF+UKqKgoRGgokUuTPejt1KXDnJ/3Gkzj
            ZH/X9iZTt9JJX8ukwPR/h2iAA54HIEqjZjBkMBIGA1UdEwEB/wQIMAYBAf8CAQEw
            DgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBR4XOcFuGuPTm/Hk6pgy0PqaWiC1TAf
            BgNVHSMEGDAWgBR4XOcFuGuPTm/Hk6pgy0PqaWiC1TAKBggqhkjOPQQDAgNIADBF
            AiEAue/bPqBqUuwL8B5h2u0sLRVt22zwFBAdq3mPrAX6R+UCIGAGHT411g2dSw1E
            ja12EvfoXFguP8MS3Bh5TdNzcV5d
            """)
}
