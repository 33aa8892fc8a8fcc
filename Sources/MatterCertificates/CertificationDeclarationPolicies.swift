// Matter Core §6.3 and §6.2.3: the certification declaration is signed by a CSA key and covers this device.

/// The signer is a known CD signing key, the signature verifies, and test-grade declarations (the test key,
/// or certification type development-and-test) are accepted only in development mode.
struct DeclarationSignaturePolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        guard let signed = evidence.declaration else { return [] }
        guard let key = evidence.signingKeys.first(where: { $0.keyIdentifier == signed.signerKeyIdentifier }) else {
            return [.unknownDeclarationSigningKey(signed.signerKeyIdentifier)]
        }
        guard (try? signed.verifySignature(publicKey: key.publicKey)) != nil else {
            return [.declarationSignatureInvalid]
        }
        var failures: [AttestationError] = []
        // A test-signed declaration claiming official certification is forged by construction: refused in every mode.
        // A provisional one (a product still in certification, §6.3.1) signed with the test key is a development
        // build of such a product, accepted in development mode as connectedhomeip does.
        if key.isTestKey && signed.declaration.certificationType == .official {
            failures.append(
                .declarationField(
                    "certification_type",
                    reason: "\(signed.declaration.certificationType) certification signed with the public test key"))
        } else if !evidence.developmentMode {
            if key.isTestKey {
                failures.append(.developmentDeclarationRefused("is signed with the CSA test key"))
            } else if signed.declaration.certificationType == .developmentAndTest {
                failures.append(.developmentDeclarationRefused("has certification type development and test"))
            }
        }
        return failures
    }
}

/// The declaration's fields have the formats §6.3.1 gives them: format version 1 and a 19-character certificate_id.
/// Its list lengths and dac_origin pairing are checked when it is decoded. security_level and security_information
/// are reserved, set to 0 by the CSA and ignored by commissioners, as connectedhomeip ignores them. Whether certificate_id, device_type_id and version_number match the product's record is
/// a question for the Distributed Compliance Ledger, which this verifier does not consult.
struct DeclarationFormatPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        guard let declaration = evidence.declaration?.declaration else { return [] }
        var failures: [AttestationError] = []
        if declaration.formatVersion != 1 {
            failures.append(.declarationFormatVersion(declaration.formatVersion))
        }
        let idLength = declaration.certificateID.unicodeScalars.count
        if idLength != CertificateLimits.declarationCertificateIDLength {
            failures.append(
                .declarationField(
                    "certificate_id",
                    reason: "\(idLength) characters, expected \(CertificateLimits.declarationCertificateIDLength)"))
        }
        return failures
    }
}

/// The declaration covers this device: its vendor_id and product_id_array match the device's own VendorID and
/// ProductID (its Basic Information cluster's); and the DAC and PAI identities match either the
/// dac_origin pair, when present (a DAC issued under another vendor's identity), or the vendor_id and
/// product_id_array.
struct DeclarationIdentityPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        guard let declaration = evidence.declaration?.declaration else { return [] }
        var failures: [AttestationError] = []
        if let deviceVendorID = evidence.deviceVendorID, deviceVendorID != declaration.vendorID {
            failures.append(
                .declarationVendorMismatch(
                    declared: declaration.vendorID, actual: deviceVendorID, source: "the device's Basic Information"))
        }
        if let deviceProductID = evidence.deviceProductID, !declaration.productIDs.contains(deviceProductID) {
            failures.append(.declarationProductMissing(deviceProductID, source: "the device's Basic Information"))
        }
        guard let dac = try? evidence.dac.attestationIdentifiers, let dacVendorID = dac.vendorID,
            let dacProductID = dac.productID,
            let pai = try? evidence.pai.attestationIdentifiers, let paiVendorID = pai.vendorID
        else {
            return failures  // VendorProductPolicy reports the chain's missing or malformed IDs.
        }
        if let originVendorID = declaration.dacOriginVendorID, let originProductID = declaration.dacOriginProductID {
            for (role, vendorID) in [(AttestationCertificateRole.dac, dacVendorID), (.pai, paiVendorID)]
            where vendorID != originVendorID {
                failures.append(
                    .declarationVendorMismatch(
                        declared: originVendorID, actual: vendorID, source: "dac_origin_vendor_id vs the \(role)"))
            }
            for (role, productID) in [(AttestationCertificateRole.dac, dacProductID), (.pai, pai.productID)] {
                if let productID, productID != originProductID {
                    failures.append(
                        .declarationProductMismatch(
                            declared: originProductID, actual: productID, source: "dac_origin_product_id vs the \(role)"
                        ))
                }
            }
        } else {
            for (role, vendorID) in [(AttestationCertificateRole.dac, dacVendorID), (.pai, paiVendorID)]
            where vendorID != declaration.vendorID {
                failures.append(
                    .declarationVendorMismatch(declared: declaration.vendorID, actual: vendorID, source: "the \(role)"))
            }
            for (role, productID) in [(AttestationCertificateRole.dac, dacProductID), (.pai, pai.productID)] {
                if let productID, !declaration.productIDs.contains(productID) {
                    failures.append(.declarationProductMissing(productID, source: "the \(role)'s"))
                }
            }
        }
        return failures
    }
}

/// A declaration that restricts the PAAs (authorized_paa_list) lists the subject key identifier of the PAA
/// that anchors this DAC.
struct DeclarationAuthorizedPAAPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        guard let authorized = evidence.declaration?.declaration.authorizedPAAs, let paa = evidence.paa else {
            return []
        }
        let identifier = ((try? paa.subjectKeyIdentifier) ?? nil) ?? []
        return authorized.contains(identifier) ? [] : [.paaNotAuthorized(identifier)]
    }
}
