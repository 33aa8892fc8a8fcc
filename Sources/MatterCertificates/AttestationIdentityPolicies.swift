// Matter Core §6.2.2.2 and §6.2.3: the vendor and product IDs the chain's subjects carry agree.

/// The DAC has a VID and a PID; the PAI's VID and PID and the PAA's VID, where present, equal the DAC's.
struct VendorProductPolicy: AttestationPolicy {
    func failures(in evidence: AttestationEvidence) -> [AttestationError] {
        var failures: [AttestationError] = []
        for (role, certificate) in evidence.chain {
            for (attribute, what) in [(ASN1ObjectIdentifier.matterVendorID, "vendor ID"), (.matterProductID, "product ID")] {
                if case .failure(let error) = Result(catching: { () throws(CertificateError) in
                    try certificate.subject.hexValue(of: attribute, digits: 4)
                }) {
                    failures.append(.invalidField("\(role) subject \(what)", reason: error.description))
                }
            }
        }
        guard let dacVendorID = evidence.dac.attestationVendorID else {
            return failures + [.missingIdentifier(.dac, "vendor ID")]
        }
        guard let dacProductID = evidence.dac.attestationProductID else {
            return failures + [.missingIdentifier(.dac, "product ID")]
        }
        for (role, certificate) in evidence.chain.dropFirst() {
            if let vendorID = certificate.attestationVendorID, vendorID != dacVendorID {
                failures.append(.vendorIDMismatch(role, vendorID, .dac, dacVendorID))
            }
            if let productID = certificate.attestationProductID {
                if role == .paa {
                    failures.append(.invalidField("PAA subject", reason: "a PAA must not carry a product ID"))
                } else if productID != dacProductID {
                    failures.append(.productIDMismatch(role, productID, .dac, dacProductID))
                }
            }
        }
        return failures
    }
}
