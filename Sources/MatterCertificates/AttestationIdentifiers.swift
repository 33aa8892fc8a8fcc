// Matter Core §6.2.2.2 Encoding of Vendor ID and Product ID in subject and issuer fields: the Matter
// attributes (1.3.6.1.4.1.37244.2.1 and .2.2, four uppercase hex digits each), or, for certificates issued
// before those attributes existed, the fallback encoding `Mvid:XXXX` / `Mpid:XXXX` inside the common name.

/// The vendor and product IDs a device attestation certificate's subject carries.
public struct AttestationIdentifiers: Hashable, Sendable {
    public var vendorID: UInt16?
    public var productID: UInt16?

    public init(vendorID: UInt16?, productID: UInt16?) {
        self.vendorID = vendorID
        self.productID = productID
    }

    /// The fallback prefixes of §6.2.2.2, each followed by exactly four uppercase hex digits.
    static let fallbackVendorPrefix = Array("Mvid:".utf8)
    static let fallbackProductPrefix = Array("Mpid:".utf8)

    /// Reads the identifiers of `name`. When either Matter attribute is present the common name is not consulted:
    /// the attributes take precedence over the fallback, as a whole, so one certificate never mixes the two.
    /// Throws when an attribute is malformed or repeated, or when the common name has a fallback prefix that
    /// no valid four-digit value follows.
    public init(subject name: DistinguishedName) throws(CertificateError) {
        let vendorID = try name.vendorID
        let productID = try name.productID
        if vendorID != nil || productID != nil {
            self.init(vendorID: vendorID, productID: productID)
            return
        }
        var fallback = AttestationIdentifiers(vendorID: nil, productID: nil)
        // Only the first common name is read, as one attribute per type is what the profile allows.
        if let commonName = name.commonName {
            let text = Array(commonName.utf8.prefix(CertificateLimits.maximumCommonNameLength))
            fallback.vendorID = try Self.fallbackValue(after: Self.fallbackVendorPrefix, in: text, what: "Mvid:")
            fallback.productID = try Self.fallbackValue(after: Self.fallbackProductPrefix, in: text, what: "Mpid:")
        }
        self = fallback
    }

    /// The first `prefix` followed by four uppercase hex digits; nil when the prefix never appears.
    private static func fallbackValue(
        after prefix: [UInt8], in text: [UInt8], what: String
    ) throws(CertificateError) -> UInt16? {
        var sawPrefix = false
        var start = 0
        while start + prefix.count <= text.count {
            defer { start += 1 }
            guard text[start..<start + prefix.count].elementsEqual(prefix) else { continue }
            sawPrefix = true
            let digitsStart = start + prefix.count
            guard digitsStart + 4 <= text.count else { break }
            let digits = String(decoding: text[digitsStart..<digitsStart + 4], as: UTF8.self)
            if let value = DistinguishedName.parseHex(digits, digits: 4) {
                return UInt16(value)
            }
        }
        if sawPrefix {
            throw .invalidField("common name", reason: "\(what) is not followed by 4 uppercase hex digits")
        }
        return nil
    }
}

extension X509Certificate {
    /// The subject's vendor and product IDs per Matter Core §6.2.2.2.
    public var attestationIdentifiers: AttestationIdentifiers {
        get throws(CertificateError) { try AttestationIdentifiers(subject: subject) }
    }
}
