import MatterCertificates
import MatterCrypto
import Testing

@Suite struct DeviceAttestationVerifierTests {
    typealias CM = CircuitMatterVectors
    typealias Support = AttestationTestSupport

    private func verifyCircuitMatter(
        developmentMode: Bool = true, store: PAATrustStore? = nil,
        signingKeys: [CertificationDeclarationSigningKey] = CertificationDeclarationSigningKey.builtIn,
        signature: [UInt8] = CM.attestationSignature, challenge: [UInt8] = CM.challenge, nonce: [UInt8] = CM.nonce,
        pai: [UInt8] = CM.pai, deviceVendorID: UInt16? = 0xFFF4, deviceProductID: UInt16? = 0x1234,
        now: Int64 = Support.january2025
    ) throws -> AttestationResult {
        let verifier = DeviceAttestationVerifier(
            trustStore: try store ?? Support.store(TestPAA.noVIDDER), developmentMode: developmentMode,
            signingKeys: signingKeys)
        return verifier.verify(
            dac: CM.dac, pai: pai, attestationElements: CM.attestationElements, attestationSignature: signature,
            attestationChallenge: challenge, nonce: nonce, deviceVendorID: deviceVendorID,
            deviceProductID: deviceProductID, now: now)
    }

    private func verifyCHIP(
        _ device: Support.CHIPDevice = Support.CHIPDevice(), developmentMode: Bool = true, store: PAATrustStore? = nil,
        signingKeys: [CertificationDeclarationSigningKey] = CertificationDeclarationSigningKey.builtIn,
        pai: [UInt8] = CHIPAttestationVectors.pai, deviceVendorID: UInt16? = 0xFFF1, deviceProductID: UInt16? = 0x8000,
        now: Int64 = Support.january2024
    ) throws -> AttestationResult {
        let verifier = DeviceAttestationVerifier(
            trustStore: try store ?? Support.store(CHIPAttestationVectors.paa), developmentMode: developmentMode,
            signingKeys: signingKeys)
        let elements = device.elements
        return verifier.verify(
            dac: CHIPAttestationVectors.dac, pai: pai, attestationElements: elements,
            attestationSignature: try device.signature(over: elements),
            attestationChallenge: device.challenge, nonce: device.nonce, deviceVendorID: deviceVendorID,
            deviceProductID: deviceProductID, now: now)
    }

    @Test func circuitMatterDeviceIsTrustedInDevelopmentMode() throws {
        let result = try verifyCircuitMatter()
        #expect(result.verdict == .trusted)
        let facts = try #require(result.facts)
        #expect(facts.vendorID == 0xFFF4 && facts.productID == 0x1234)
        #expect(facts.certificationType == .developmentAndTest)
        #expect(facts.declarationSignedWithTestKey == true)
        #expect(facts.dacPublicKey == (try X509Certificate(derEncoded: CM.dac)).publicKey)
    }

    @Test func circuitMatterDeviceIsRefusedOutsideDevelopmentMode() throws {
        let result = try verifyCircuitMatter(developmentMode: false)
        #expect(result.reasons == [.developmentDeclarationRefused("is signed with the CSA test key")])
        #expect(
            result.reasons.map(\.summary) == [
                "certification declaration is signed with the CSA test key; accepted only in development mode"
            ])
        #expect(result.facts?.vendorID == 0xFFF4)
    }

    @Test func manualCodeWithoutVendorAndProductStillAttests() throws {
        #expect(try verifyCircuitMatter(deviceVendorID: nil, deviceProductID: nil).verdict == .trusted)
    }

    @Test func connectedhomeipTestChainIsTrusted() throws {
        let result = try verifyCHIP()
        #expect(result.verdict == .trusted)
        #expect(result.facts?.vendorID == 0xFFF1 && result.facts?.productID == 0x8000)
    }

    @Test func tamperedAttestationSignatureIsRefused() throws {
        var signature = CM.attestationSignature
        signature[10] ^= 0x01
        let result = try verifyCircuitMatter(signature: signature)
        #expect(result.reasons == [.attestationSignatureInvalid("attestation")])
        #expect(result.reasons.first?.summary == "attestation signature does not verify with the DAC's key")
    }

    @Test func signatureFromAnotherSessionIsRefused() throws {
        let result = try verifyCircuitMatter(challenge: [UInt8](repeating: 0, count: 16))
        #expect(result.reasons == [.attestationSignatureInvalid("attestation")])
    }

    @Test func wrongNonceIsRefused() throws {
        let result = try verifyCircuitMatter(nonce: [UInt8](repeating: 0x20, count: 32))
        #expect(result.reasons == [.nonceMismatch("attestation nonce")])
    }

    @Test func missingPAAIsRefusedWithTheAuthorityKeyID() throws {
        let result = try verifyCircuitMatter(store: Support.store(CHIPAttestationVectors.paa))
        #expect(
            result.reasons == [
                .paaNotFound(authorityKeyIdentifier: [UInt8](hex: "785ce705b86b8f4e6fc793aa60cb43ea696882d5"))
            ])
        #expect(
            result.reasons.first?.summary
                == "no PAA in the trust store matches the PAI's issuer (authority key ID 78:5C:E7:05:B8:6B:8F:4E:6F:C7:93:AA:60:CB:43:EA:69:68:82:D5)"
        )
    }

    @Test func daCFromAnotherVendorsPAIIsRefused() throws {
        // connectedhomeip's DAC (VID 0xFFF1) presented with CircuitMatter's PAI (VID 0xFFF4).
        let result = try verifyCHIP(
            store: Support.store(CHIPAttestationVectors.paa, TestPAA.noVIDDER), pai: CM.pai, now: Support.january2025)
        // Every rule the stranger PAI breaks is named: signature, issuance date, key identifier chain, vendor.
        #expect(
            result.reasons.map(\.summary) == [
                "DAC signature does not verify with the PAI's key",
                "PAI was not valid when the DAC was issued (2021-06-28T14:23:43Z)",
                "DAC key identifier: the authority key identifier is not the PAI's subject key identifier",
                "PAI vendor ID 0xFFF4 differs from DAC vendor ID 0xFFF1",
                "certification declaration is for vendor ID 0xFFF1, the PAI has 0xFFF4",
            ])
        #expect(result.reasons.map(\.rule) == ["§6.2.3", "§6.2.3", "§6.2.2.3", "§6.2.2.2", "§6.3.1"])
    }

    @Test func retiredPAAIsNotThePAIsIssuer() throws {
        let result = try verifyCHIP(store: Support.store(CHIPAttestationVectors.retiredPAA))
        #expect(
            result.reasons.map(\.summary) == [
                "no PAA in the trust store matches the PAI's issuer (authority key ID EF:18:E0:EC:D4:66:04:34:DF:0D:BC:91:1E:D4:52:16:99:66:83:9F)"
            ])
    }

    @Test func circuitMatterChainBeforeItsValidityIsRefused() throws {
        // The device's clock said 2023-11-14; its DAC and PAI start on 2024-10-17. The PAI is judged at the DAC's
        // issuance (Matter Core §6.2.3), when it was valid: only the DAC is named.
        let result = try verifyCircuitMatter(now: CM.unixTime)
        #expect(result.reasons.map(\.summary) == ["DAC is not valid until 2024-10-17T00:00:00Z"])
    }

    @Test func chainBeforeItsValidityIsRefused() throws {
        let result = try verifyCHIP(now: 1_609_459_200)  // 2021-01-01
        #expect(result.reasons.map(\.summary) == ["DAC is not valid until 2021-06-28T14:23:43Z"])
    }

    @Test func payloadProductNotInTheDeclarationIsRefused() throws {
        let result = try verifyCHIP(deviceProductID: 0x9000)
        #expect(result.reasons == [.declarationProductMissing(0x9000, source: "the device's Basic Information")])
        #expect(
            result.reasons.first?.summary
                == "certification declaration does not list product ID 0x9000 (the device's Basic Information)")
    }

    @Test func payloadVendorDifferentFromTheDeclarationIsRefused() throws {
        let result = try verifyCHIP(deviceVendorID: 0xFFF2)
        #expect(
            result.reasons == [
                .declarationVendorMismatch(declared: 0xFFF1, actual: 0xFFF2, source: "the device's Basic Information")
            ])
    }

    @Test func declarationOfAnotherProductIsRefused() throws {
        // CircuitMatter's declaration (0xFFF4 / 0x1234) returned by connectedhomeip's device (0xFFF1 / 0x8000).
        var device = Support.CHIPDevice()
        device.certificationDeclaration = CM.certificationDeclaration
        let result = try verifyCHIP(device, deviceVendorID: nil, deviceProductID: nil)
        #expect(
            result.reasons == [
                .declarationVendorMismatch(declared: 0xFFF4, actual: 0xFFF1, source: "the DAC"),
                .declarationVendorMismatch(declared: 0xFFF4, actual: 0xFFF1, source: "the PAI"),
                .declarationProductMissing(0x8000, source: "the DAC's"),
                .declarationProductMissing(0x8000, source: "the PAI's"),
            ])
    }

    @Test func declarationFromAnUnknownKeyIsRefused() throws {
        let result = try verifyCircuitMatter(signingKeys: CertificationDeclarationSigningKey.production)
        #expect(
            result.reasons.map(\.summary) == [
                "certification declaration is signed by an unknown key (key ID 62:FA:82:33:59:AC:FA:A9:96:3E:1C:FA:14:0A:DD:F5:04:F3:71:60)"
            ])
    }

    @Test func declarationThatDoesNotVerifyIsRefused() throws {
        let impostor = CertificationDeclarationSigningKey(
            keyIdentifier: CertificationDeclarationSigningKey.test.keyIdentifier,
            publicKey: CertificationDeclarationSigningKey.production[0].publicKey, isTestKey: true)
        #expect(try verifyCircuitMatter(signingKeys: [impostor]).reasons == [.declarationSignatureInvalid])
    }

    @Test func officialDeclarationSignedWithTheTestKeyIsRefusedEvenInDevelopmentMode() throws {
        var device = Support.CHIPDevice()
        device.certificationDeclaration = try Support.envelope(
            CertificationDeclaration(
                vendorID: 0xFFF1, productIDs: [0x8000], deviceTypeID: 0x16, certificateID: "ZIG20142ZB330003-24",
                versionNumber: 1, certificationType: .official),
            signedBy: Support.testDeclarationSigningKey,
            keyIdentifier: CertificationDeclarationSigningKey.test.keyIdentifier)
        let result = try verifyCHIP(device)
        #expect(
            result.reasons.map(\.summary) == [
                "certification declaration certification_type: official certification signed with the public test key"
            ])
    }

    @Test func officialDeclarationFromAProductionKeyIsTrustedOutsideDevelopmentMode() throws {
        // A stand-in production key: a list of signing keys is the verifier's input, so the rule is testable.
        let production = P256.PrivateKey(using: DeterministicRandom(seed: 7))
        let identifier = [UInt8](repeating: 0xC5, count: 20)
        var device = Support.CHIPDevice()
        device.certificationDeclaration = try Support.envelope(
            CertificationDeclaration(
                vendorID: 0xFFF1, productIDs: [0x8001, 0x8000], deviceTypeID: 0x16,
                certificateID: "CSA00000SWC00000-01",
                versionNumber: 1, certificationType: .official),
            signedBy: production, keyIdentifier: identifier)
        let keys = [
            CertificationDeclarationSigningKey(
                keyIdentifier: identifier, publicKey: production.publicKey.x963Representation, isTestKey: false)
        ]
        let result = try verifyCHIP(device, developmentMode: false, signingKeys: keys)
        #expect(result.verdict == .trusted)
        #expect(result.facts?.certificationType == .official && result.facts?.declarationSignedWithTestKey == false)
        // A development-and-test declaration from the same key is still development-only.
        device.certificationDeclaration = try Support.envelope(
            CertificationDeclaration(
                vendorID: 0xFFF1, productIDs: [0x8000], deviceTypeID: 0x16, certificateID: "CSA00000SWC00000-01",
                versionNumber: 1, certificationType: .developmentAndTest),
            signedBy: production, keyIdentifier: identifier)
        #expect(
            try verifyCHIP(device, developmentMode: false, signingKeys: keys).reasons
                == [.developmentDeclarationRefused("has certification type development and test")])
    }

    @Test func declarationWithDACOriginAndAuthorizedPAAs() throws {
        let paaKeyIdentifier = try #require(
            try X509Certificate(derEncoded: CHIPAttestationVectors.paa).subjectKeyIdentifier)
        func device(originProductID: UInt16, authorizedPAAs: [[UInt8]]) throws -> Support.CHIPDevice {
            var device = Support.CHIPDevice()
            device.certificationDeclaration = try Support.envelope(
                CertificationDeclaration(
                    vendorID: 0xFFF2, productIDs: [0x8001], deviceTypeID: 0x16, certificateID: "ZIG20142ZB330003-24",
                    versionNumber: 1, certificationType: .developmentAndTest, dacOriginVendorID: 0xFFF1,
                    dacOriginProductID: originProductID, authorizedPAAs: authorizedPAAs),
                signedBy: Support.testDeclarationSigningKey,
                keyIdentifier: CertificationDeclarationSigningKey.test.keyIdentifier)
            return device
        }
        #expect(
            try verifyCHIP(
                device(originProductID: 0x8000, authorizedPAAs: [paaKeyIdentifier]), deviceVendorID: 0xFFF2,
                deviceProductID: 0x8001
            ).verdict == .trusted)
        #expect(
            try verifyCHIP(
                device(originProductID: 0x8005, authorizedPAAs: [[UInt8](repeating: 1, count: 20)]),
                deviceVendorID: nil, deviceProductID: nil
            ).reasons == [
                .declarationProductMismatch(
                    declared: 0x8005, actual: 0x8000, source: "dac_origin_product_id vs the DAC"),
                .declarationProductMismatch(
                    declared: 0x8005, actual: 0x8000, source: "dac_origin_product_id vs the PAI"),
                .paaNotAuthorized(paaKeyIdentifier),
            ])
    }

    @Test func malformedDeclarationIsReportedAndTheChainStillChecked() throws {
        var device = Support.CHIPDevice()
        device.certificationDeclaration = Array(CHIPAttestationVectors.certificationDeclaration.dropLast())
        let result = try verifyCHIP(device, store: Support.store(CHIPAttestationVectors.retiredPAA))
        #expect(
            result.reasons.map(\.summary) == [
                "certification declaration is malformed: ContentInfo: truncated: needed 537 bytes at offset 4, 536 left",
                "no PAA in the trust store matches the PAI's issuer (authority key ID EF:18:E0:EC:D4:66:04:34:DF:0D:BC:91:1E:D4:52:16:99:66:83:9F)",
            ])
        #expect(result.facts?.certificationType == nil && result.facts?.vendorID == 0xFFF1)
    }

    @Test func malformedDACIsRefusedWithoutFacts() throws {
        let verifier = DeviceAttestationVerifier(trustStore: try Support.store(TestPAA.noVIDDER), developmentMode: true)
        let result = verifier.verify(
            dac: Array(CM.dac.dropLast()), pai: CM.pai, attestationElements: CM.attestationElements,
            attestationSignature: CM.attestationSignature, attestationChallenge: CM.challenge, nonce: CM.nonce,
            deviceVendorID: nil, deviceProductID: nil, now: Support.january2025)
        #expect(result.facts == nil)
        #expect(result.reasons.count == 1)
        #expect(
            result.reasons.first?.summary.hasPrefix("DAC is not a valid certificate: certificate: truncated") == true)
    }

    @Test func wrongSizedSignatureAndChallengeAreReported() throws {
        let result = try verifyCircuitMatter(
            signature: Array(CM.attestationSignature.prefix(63)), challenge: Array(CM.challenge.prefix(8)))
        #expect(
            result.reasons.map(\.summary) == [
                "attestation signature: 63 octets, expected 64", "attestation challenge: 8 octets, expected 16",
            ])
    }
}
