import MatterCertificates
import MatterCrypto
import MatterTestSupport
import Testing

/// A PAA → PAI → DAC chain and declaration built to order, so each test breaks exactly one rule of Matter
/// Core §6.2.2 / §6.3.1 and checks that the verifier names it (and that the unbroken chain is trusted).
struct AttestationChainBuilder {
    /// One certificate's fields; extensions are X.509 extensions exactly as they will be encoded.
    struct Profile {
        var subject: DistinguishedName
        var extensions: [X509Extension]
        /// Seconds since 2000-01-01 (the Matter epoch); notAfter 0 never expires.
        var notBefore: UInt32 = 700_000_000  // 2022-03-07
        var notAfter: UInt32 = 0
    }

    static let paaKey = try! P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))
    static let paiKey = try! P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0x22, count: 32))
    static let dacKey = try! P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0x33, count: 32))

    static func identifier(_ key: P256.PrivateKey) -> [UInt8] {
        CertificateAuthority.keyIdentifier(of: key.publicKey.x963Representation)
    }

    static func standardExtensions(
        constraints: BasicConstraints, usage: KeyUsage, key: P256.PrivateKey, issuer: P256.PrivateKey
    ) -> [X509Extension] {
        [
            X509Extension(identifier: .basicConstraints, isCritical: true, value: constraints.extensionValue),
            X509Extension(identifier: .keyUsage, isCritical: true, value: usage.extensionValue),
            X509Extension(
                identifier: .subjectKeyIdentifier, isCritical: false,
                value: KeyIdentifier.subjectExtensionValue(identifier(key))),
            X509Extension(
                identifier: .authorityKeyIdentifier, isCritical: false,
                value: KeyIdentifier.authorityExtensionValue(identifier(issuer))),
        ]
    }

    var paa = Profile(
        subject: DistinguishedName([.commonName("Rule Test PAA"), .matterVendorID(0xFFF1)]),
        extensions: standardExtensions(
            constraints: BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 1),
            usage: [.keyCertSign, .cRLSign], key: paaKey, issuer: paaKey))
    var pai = Profile(
        subject: DistinguishedName([.commonName("Rule Test PAI"), .matterVendorID(0xFFF1)]),
        extensions: standardExtensions(
            constraints: BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 0),
            usage: [.keyCertSign, .cRLSign], key: paiKey, issuer: paaKey))
    var dac = Profile(
        subject: DistinguishedName([.commonName("Rule Test DAC"), .matterVendorID(0xFFF1), .matterProductID(0x8000)]),
        extensions: standardExtensions(
            constraints: BasicConstraints(isCertificateAuthority: false), usage: .digitalSignature,
            key: dacKey, issuer: paiKey))
    var declaration = CertificationDeclaration(
        vendorID: 0xFFF1, productIDs: [0x8000], deviceTypeID: 0x0100, certificateID: "ZIG20141ZB330001-24",
        versionNumber: 1, certificationType: .developmentAndTest)

    /// Replaces (or, with nil, removes) the extension `identifier` of one profile.
    static func replacing(
        _ identifier: ASN1ObjectIdentifier, with replacement: X509Extension?, in profile: inout Profile
    ) {
        profile.extensions = profile.extensions.compactMap { $0.identifier == identifier ? replacement : $0 }
    }

    private static func certificate(
        _ profile: Profile, issuer: DistinguishedName, key: P256.PrivateKey, signedBy signer: P256.PrivateKey
    ) throws -> [UInt8] {
        let extensions = profile.extensions.map {
            MatterCertificateExtension.futureExtension(DERWriter.encode($0.derNode))
        }
        return try MatterCertificate(
            serialNumber: [0x01], issuer: issuer, notBefore: profile.notBefore, notAfter: profile.notAfter,
            subject: profile.subject, publicKey: key.publicKey.x963Representation, extensions: extensions, signature: []
        )
        .signed(with: signer).x509DER()
    }

    func verify(
        deviceVendorID: UInt16? = 0xFFF1, deviceProductID: UInt16? = 0x8000,
        now: Int64 = 1_735_689_600 /* 2025-01-01 */
    ) throws -> AttestationResult {
        let paaDER = try Self.certificate(paa, issuer: paa.subject, key: Self.paaKey, signedBy: Self.paaKey)
        let paiDER = try Self.certificate(pai, issuer: paa.subject, key: Self.paiKey, signedBy: Self.paaKey)
        let dacDER = try Self.certificate(dac, issuer: pai.subject, key: Self.dacKey, signedBy: Self.paiKey)
        let signed = try AttestationTestSupport.envelope(
            declaration, signedBy: AttestationTestSupport.testDeclarationSigningKey,
            keyIdentifier: CertificationDeclarationSigningKey.test.keyIdentifier)
        let nonce = [UInt8](repeating: 0x42, count: 32), challenge = [UInt8](repeating: 0x24, count: 16)
        let elements = AttestationElements(certificationDeclaration: signed, attestationNonce: nonce, timestamp: 0)
            .tlvEncoded
        let store = PAATrustStore(certificates: [try X509Certificate(derEncoded: paaDER)])
        return DeviceAttestationVerifier(trustStore: store, developmentMode: true).verify(
            dac: dacDER, pai: paiDER, attestationElements: elements,
            attestationSignature: try Self.dacKey.signature(for: elements + challenge).rawRepresentation,
            attestationChallenge: challenge, nonce: nonce, deviceVendorID: deviceVendorID,
            deviceProductID: deviceProductID, now: now)
    }
}

@Suite struct AttestationRuleTests {
    typealias Builder = AttestationChainBuilder

    @Test func theUnbrokenChainIsTrusted() throws {
        let result = try Builder().verify()
        #expect(result.verdict == .trusted, "\(result.reasons)")
    }

    @Test func aPAIWithoutAVendorIDIsRefused() throws {
        var chain = Builder()
        chain.pai.subject = DistinguishedName([.commonName("Rule Test PAI")])
        let reasons = try chain.verify().reasons
        #expect(reasons.contains(.missingIdentifier(.pai, "vendor ID")))
        #expect(
            reasons.first { $0 == .missingIdentifier(.pai, "vendor ID") }?.description
                == "PAI has no vendor ID (Matter Core §6.2.2.2)")
    }

    @Test func aPAIOfAnotherVendorIsRefused() throws {
        var chain = Builder()
        chain.pai.subject = DistinguishedName([.commonName("Rule Test PAI"), .matterVendorID(0xFFF2)])
        chain.paa.subject = DistinguishedName([.commonName("Rule Test PAA")])
        #expect(try chain.verify().reasons.contains(.vendorIDMismatch(.pai, 0xFFF2, .dac, 0xFFF1)))
    }

    @Test(arguments: [AttestationCertificateRole.dac, .pai])
    func basicConstraintsAndKeyUsageMustBeCritical(_ role: AttestationCertificateRole) throws {
        for (identifier, name) in [
            (ASN1ObjectIdentifier.basicConstraints, "basic constraints"), (.keyUsage, "key usage"),
        ] {
            var chain = Builder()
            let value = try #require(
                (role == .dac ? chain.dac : chain.pai).extensions.first { $0.identifier == identifier }
            ).value
            let lax = X509Extension(identifier: identifier, isCritical: false, value: value)
            if role == .dac {
                Builder.replacing(identifier, with: lax, in: &chain.dac)
            } else {
                Builder.replacing(identifier, with: lax, in: &chain.pai)
            }
            #expect(try chain.verify().reasons == [.extensionCriticality(role, extension: name, mustBeCritical: true)])
        }
    }

    @Test func aCriticalKeyIdentifierIsRefused() throws {
        var chain = Builder()
        let value = KeyIdentifier.subjectExtensionValue(Builder.identifier(Builder.dacKey))
        Builder.replacing(
            .subjectKeyIdentifier,
            with: X509Extension(identifier: .subjectKeyIdentifier, isCritical: true, value: value), in: &chain.dac)
        #expect(
            try chain.verify().reasons == [
                .extensionCriticality(.dac, extension: "subject key identifier", mustBeCritical: false)
            ])
    }

    @Test func aDACWithAPathLengthIsRefused() throws {
        var chain = Builder()
        let constraints = BasicConstraints(isCertificateAuthority: false, pathLengthConstraint: 0)
        Builder.replacing(
            .basicConstraints,
            with: X509Extension(identifier: .basicConstraints, isCritical: true, value: constraints.extensionValue),
            in: &chain.dac)
        #expect(
            try chain.verify().reasons == [.basicConstraints(.dac, "a DAC must not be a CA nor carry a path length")])
    }

    @Test func keyUsageIsAnExactSet() throws {
        var signingDAC = Builder()
        Builder.replacing(
            .keyUsage,
            with: X509Extension(
                identifier: .keyUsage, isCritical: true,
                value: KeyUsage([.digitalSignature, .keyCertSign]).extensionValue),
            in: &signingDAC.dac)
        #expect(try signingDAC.verify().reasons == [.keyUsage(.dac, "a DAC must have digitalSignature alone")])

        var noCRLSign = Builder()
        Builder.replacing(
            .keyUsage,
            with: X509Extension(identifier: .keyUsage, isCritical: true, value: KeyUsage.keyCertSign.extensionValue),
            in: &noCRLSign.pai)
        #expect(try noCRLSign.verify().reasons.map(\.rule) == ["§6.2.2.4"])

        var signingPAI = Builder()
        let allowed: KeyUsage = [.keyCertSign, .cRLSign, .digitalSignature]
        Builder.replacing(
            .keyUsage, with: X509Extension(identifier: .keyUsage, isCritical: true, value: allowed.extensionValue),
            in: &signingPAI.pai)
        #expect(try signingPAI.verify().verdict == .trusted)
    }

    @Test func keyIdentifiersArePresentAndChained() throws {
        var noAuthority = Builder()
        Builder.replacing(.authorityKeyIdentifier, with: nil, in: &noAuthority.dac)
        #expect(
            try noAuthority.verify().reasons == [
                .keyIdentifier(.dac, "the authority key identifier extension is missing")
            ])

        var noSubject = Builder()
        Builder.replacing(.subjectKeyIdentifier, with: nil, in: &noSubject.pai)
        #expect(
            try noSubject.verify().reasons == [.keyIdentifier(.pai, "the subject key identifier extension is missing")])

        var wrongAuthority = Builder()
        let other = KeyIdentifier.authorityExtensionValue([UInt8](repeating: 7, count: 20))
        Builder.replacing(
            .authorityKeyIdentifier,
            with: X509Extension(identifier: .authorityKeyIdentifier, isCritical: false, value: other),
            in: &wrongAuthority.dac)
        #expect(
            try wrongAuthority.verify().reasons == [
                .keyIdentifier(.dac, "the authority key identifier is not the PAI's subject key identifier")
            ])
    }

    @Test func theFallbackEncodingInTheCommonNameIsRead() throws {
        var chain = Builder()
        chain.dac.subject = DistinguishedName([.commonName("ACME DAC Mpid:8000,Mvid:FFF1")])
        chain.pai.subject = DistinguishedName([.commonName("ACME PAI Mvid:FFF1")])
        let result = try chain.verify()
        #expect(result.verdict == .trusted, "\(result.reasons)")
        #expect(result.facts?.vendorID == 0xFFF1 && result.facts?.productID == 0x8000)
    }

    @Test func theMatterAttributesOverrideTheFallbackAsAWhole() throws {
        #expect(
            try AttestationIdentifiers(
                subject: DistinguishedName([
                    .commonName("Mvid:FFF2 Mpid:00B2"), .matterVendorID(0xFFF1), .matterProductID(0x00B1),
                ]))
                == AttestationIdentifiers(vendorID: 0xFFF1, productID: 0x00B1))
        // A product ID attribute alone leaves the vendor ID absent: the common name's is not mixed in.
        #expect(
            try AttestationIdentifiers(
                subject: DistinguishedName([.commonName("Mvid:FFF1"), .matterProductID(0x00B1)]))
                == AttestationIdentifiers(vendorID: nil, productID: 0x00B1))
    }

    @Test(arguments: ["DAC Mvid:fff1 Mpid:00B1", "DAC Mvid:FF1 Mpid:00B1", "DAC Mvid:FFF1 Mpid:", "Mpid:Mvid:Fff1"])
    func aMalformedFallbackIsRefused(_ commonName: String) throws {
        #expect(throws: CertificateError.self) {
            try AttestationIdentifiers(subject: DistinguishedName([.commonName(commonName)]))
        }
        var chain = Builder()
        chain.dac.subject = DistinguishedName([.commonName(commonName)])
        #expect(try chain.verify().reasons.contains { $0.rule == "§6.2.2.2" })
    }

    @Test func anIssuerExpiredSinceTheDACWasIssuedIsStillTrusted() throws {
        var chain = Builder()
        chain.pai.notAfter = 720_000_000  // 2022-10-25: after the DAC's notBefore, before now
        chain.paa.notAfter = 720_000_000
        #expect(try chain.verify().verdict == .trusted)
    }

    @Test func aDACIssuedOutsideItsIssuersValidityIsRefused() throws {
        var chain = Builder()
        chain.pai.notBefore = 710_000_000  // after the DAC's notBefore
        #expect(
            try chain.verify().reasons == [
                .notValidAtIssuance(
                    .pai, dacNotBefore: try CertificateTime(secondsSinceUnixEpoch: 946_684_800 + 700_000_000))
            ])

        var expiredDAC = Builder()
        expiredDAC.dac.notAfter = 720_000_000
        #expect(try expiredDAC.verify().reasons.map(\.summary) == ["DAC expired at 2022-10-25T08:00:00Z"])
    }

    @Test func declarationFieldsHaveTheirFormats() throws {
        var shortID = Builder()
        shortID.declaration.certificateID = "ZIG20141ZB330001-2"
        #expect(
            try shortID.verify().reasons == [.declarationField("certificate_id", reason: "18 characters, expected 19")])

        // Reserved fields are ignored, as connectedhomeip's commissioner ignores them.
        var security = Builder()
        security.declaration.securityLevel = 1
        security.declaration.securityInformation = 2
        #expect(try security.verify().verdict == .trusted)
    }

    @Test func theDeclarationMustCoverTheDevicesBasicInformation() throws {
        let reasons = try Builder().verify(deviceVendorID: 0xFFF2, deviceProductID: 0x8001).reasons
        #expect(
            reasons.map(\.summary) == [
                "certification declaration is for vendor ID 0xFFF1, the device's Basic Information has 0xFFF2",
                "certification declaration does not list product ID 0x8001 (the device's Basic Information)",
            ])
    }

    /// A provisional declaration (certification_type 1) is the CSA's statement for a product still in certification
    /// (Matter Core §6.3.1); it is accepted like an official one. Signed with the public test key, it is accepted in
    /// development mode as connectedhomeip does; an official one signed with the test key never is.
    @Test func aProvisionalDeclarationIsAccepted() throws {
        var chain = Builder()
        chain.declaration.certificationType = .provisional
        #expect(try chain.verify().verdict == .trusted)
        chain.declaration.certificationType = .official
        #expect(try chain.verify().reasons.map(\.rule) == ["§6.3.1"])
    }
}
