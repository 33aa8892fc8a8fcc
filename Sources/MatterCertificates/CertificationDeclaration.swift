import MatterTLV

// Matter Core §6.3.1 Certification Declaration: the CSA's statement of what a product is certified as.
public struct CertificationDeclaration: Hashable, Sendable, TLVCodable {
    public var formatVersion: UInt8
    public var vendorID: UInt16
    public var productIDs: [UInt16]
    public var deviceTypeID: UInt32
    public var certificateID: String
    public var securityLevel: UInt8
    public var securityInformation: UInt16
    public var versionNumber: UInt16
    public var certificationType: CertificationType
    /// Present, with `dacOriginProductID`, when the DAC was issued under another vendor's identity.
    public var dacOriginVendorID: UInt16?
    public var dacOriginProductID: UInt16?
    /// Subject key identifiers of the only PAAs allowed to anchor this product's DACs, when present.
    public var authorizedPAAs: [[UInt8]]?

    public init(
        formatVersion: UInt8 = 1, vendorID: UInt16, productIDs: [UInt16], deviceTypeID: UInt32, certificateID: String,
        securityLevel: UInt8 = 0, securityInformation: UInt16 = 0, versionNumber: UInt16,
        certificationType: CertificationType,
        dacOriginVendorID: UInt16? = nil, dacOriginProductID: UInt16? = nil, authorizedPAAs: [[UInt8]]? = nil
    ) {
        self.formatVersion = formatVersion
        self.vendorID = vendorID
        self.productIDs = productIDs
        self.deviceTypeID = deviceTypeID
        self.certificateID = certificateID
        self.securityLevel = securityLevel
        self.securityInformation = securityInformation
        self.versionNumber = versionNumber
        self.certificationType = certificationType
        self.dacOriginVendorID = dacOriginVendorID
        self.dacOriginProductID = dacOriginProductID
        self.authorizedPAAs = authorizedPAAs
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, formatVersion)
            TLVElement.context(1, vendorID)
            TLVElement.context(2, productIDs)
            TLVElement.context(3, deviceTypeID)
            TLVElement.context(4, certificateID)
            TLVElement.context(5, securityLevel)
            TLVElement.context(6, securityInformation)
            TLVElement.context(7, versionNumber)
            TLVElement.context(8, certificationType.rawValue)
            TLVElement.context(9, dacOriginVendorID)
            TLVElement.context(10, dacOriginProductID)
            TLVElement.context(11, authorizedPAAs)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        let type: UInt8 = try fields.required(8)
        guard let certificationType = CertificationType(rawValue: type) else {
            throw .inField(8, .integerOutOfRange(value: String(type), type: "certification_type (0, 1 or 2)"))
        }
        self.init(
            formatVersion: try fields.required(0), vendorID: try fields.required(1), productIDs: try fields.required(2),
            deviceTypeID: try fields.required(3), certificateID: try fields.required(4),
            securityLevel: try fields.required(5),
            securityInformation: try fields.required(6), versionNumber: try fields.required(7),
            certificationType: certificationType,
            dacOriginVendorID: try fields.optional(9), dacOriginProductID: try fields.optional(10),
            authorizedPAAs: try fields.optional(11))
    }

    /// Decodes the TLV and checks the lengths and pairings §6.3.1 requires.
    public init(tlv bytes: [UInt8]) throws(CertificateError) {
        let element = try decodingTLV("certification declaration") { () throws(TLVError) in try TLVReader.decode(bytes)
        }
        self = try decodingTLV("certification declaration") { () throws(TLVError) in
            try CertificationDeclaration(tlv: element)
        }
        guard (1...CertificateLimits.maximumDeclaredProductIDs).contains(productIDs.count) else {
            throw .invalidField(
                "product_id_array",
                reason: "\(productIDs.count) product IDs, 1 to \(CertificateLimits.maximumDeclaredProductIDs) allowed")
        }
        guard (dacOriginVendorID == nil) == (dacOriginProductID == nil) else {
            throw .invalidField(
                "dac_origin_vendor_id",
                reason: "dac_origin_vendor_id and dac_origin_product_id must be present together")
        }
        if let authorizedPAAs {
            guard (1...CertificateLimits.maximumAuthorizedPAAs).contains(authorizedPAAs.count),
                authorizedPAAs.allSatisfy({ $0.count == CertificateLimits.keyIdentifierLength })
            else {
                throw .invalidField(
                    "authorized_paa_list",
                    reason:
                        "1 to \(CertificateLimits.maximumAuthorizedPAAs) key identifiers of \(CertificateLimits.keyIdentifierLength) octets required"
                )
            }
        }
    }
}

// Matter Core §6.3.1 certification_type.
public enum CertificationType: UInt8, Hashable, Sendable, CustomStringConvertible {
    case developmentAndTest = 0, provisional = 1, official = 2

    public var description: String {
        switch self {
        case .developmentAndTest: "development and test"
        case .provisional: "provisional"
        case .official: "official"
        }
    }
}
