// Matter Core §6.2.2.2 and §6.2.3: the vendor and product IDs the chain's subjects carry agree.

/// The DAC has a vendor ID and a product ID; the PAI has a vendor ID equal to the DAC's (so a PAI cannot sign
/// for any vendor) and, when it has a product ID, the DAC's; the PAA's vendor ID, when present, is the PAI's,
/// and a PAA has no product ID. IDs are read with the §6.2.2.2 fallback encoding (`AttestationIdentifiers`).
struct VendorProductPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        var failures: [AttestationError] = []
        var identifiers: [AttestationCertificateRole: AttestationIdentifiers] = [:]
        for (role, certificate) in evidence.chain {
            do throws(CertificateError) {
                identifiers[role] = try certificate.attestationIdentifiers
            } catch {
                failures.append(.invalidIdentifier(role, error))
            }
        }
        guard let dac = identifiers[.dac], let pai = identifiers[.pai] else { return failures }
        guard let dacVendorID = dac.vendorID else { return failures + [.missingIdentifier(.dac, "vendor ID")] }
        guard let dacProductID = dac.productID else { return failures + [.missingIdentifier(.dac, "product ID")] }
        if let paiVendorID = pai.vendorID {
            if paiVendorID != dacVendorID {
                failures.append(.vendorIDMismatch(.pai, paiVendorID, .dac, dacVendorID))
            }
        } else {
            failures.append(.missingIdentifier(.pai, "vendor ID"))
        }
        if let paiProductID = pai.productID, paiProductID != dacProductID {
            failures.append(.productIDMismatch(.pai, paiProductID, .dac, dacProductID))
        }
        if let paa = identifiers[.paa] {
            if let paaVendorID = paa.vendorID, let paiVendorID = pai.vendorID, paaVendorID != paiVendorID {
                failures.append(.vendorIDMismatch(.paa, paaVendorID, .pai, paiVendorID))
            }
            if paa.productID != nil {
                failures.append(
                    .invalidIdentifier(.paa, .invalidField("subject", reason: "a PAA must not carry a product ID")))
            }
        }
        return failures
    }
}
