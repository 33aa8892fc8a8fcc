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
        // A test-signed declaration claiming certification is forged by construction: refused in every mode.
        if key.isTestKey && signed.declaration.certificationType != .developmentAndTest {
            failures.append(.invalidField("certification_type", reason: "\(signed.declaration.certificationType) certification signed with the public test key"))
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

/// The declaration names the DAC's vendor (or its dac_origin) and lists its product, matches the onboarding
/// payload's VID/PID when there is one, and authorizes the PAA when it restricts PAAs.
struct DeclarationContentPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        guard let declaration = evidence.declaration?.declaration else { return [] }
        var failures: [AttestationError] = []
        if declaration.formatVersion != 1 {
            failures.append(.declarationFormatVersion(declaration.formatVersion))
        }
        if let dacVendorID = evidence.dac.attestationVendorID, let dacProductID = evidence.dac.attestationProductID {
            if let originVendorID = declaration.dacOriginVendorID, let originProductID = declaration.dacOriginProductID {
                if originVendorID != dacVendorID {
                    failures.append(.declarationVendorMismatch(declared: originVendorID, actual: dacVendorID, source: "dac_origin_vendor_id vs the DAC"))
                }
                if originProductID != dacProductID {
                    failures.append(.declarationProductMismatch(declared: originProductID, actual: dacProductID, source: "dac_origin_product_id vs the DAC"))
                }
            } else {
                if declaration.vendorID != dacVendorID {
                    failures.append(.declarationVendorMismatch(declared: declaration.vendorID, actual: dacVendorID, source: "the DAC"))
                }
                if !declaration.productIDs.contains(dacProductID) {
                    failures.append(.declarationProductMissing(dacProductID, source: "the DAC's"))
                }
            }
        }
        if let payloadVendorID = evidence.payloadVendorID, payloadVendorID != declaration.vendorID {
            failures.append(.declarationVendorMismatch(declared: declaration.vendorID, actual: payloadVendorID, source: "the onboarding payload"))
        }
        if let payloadProductID = evidence.payloadProductID, !declaration.productIDs.contains(payloadProductID) {
            failures.append(.declarationProductMissing(payloadProductID, source: "the onboarding payload's"))
        }
        if let authorized = declaration.authorizedPAAs, let paa = evidence.paa {
            let identifier = ((try? paa.subjectKeyIdentifier) ?? nil) ?? []
            if !authorized.contains(identifier) {
                failures.append(.paaNotAuthorized(identifier))
            }
        }
        return failures
    }
}
