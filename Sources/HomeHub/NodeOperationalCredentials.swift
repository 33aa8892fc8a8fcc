import MatterTLV

// Matter Application Cluster spec §11.18 Node Operational Credentials (0x003E); tags as in controller-clusters.matter.
public enum NodeOperationalCredentials {
    public static let clusterID: UInt32 = 0x003E

    public static let fabrics = ClusterAttribute<[FabricDescriptor]>(clusterID: clusterID, attributeID: 1, name: "OperationalCredentials.Fabrics")
    public static let currentFabricIndex = ClusterAttribute<UInt8>(
        clusterID: clusterID, attributeID: 5, name: "OperationalCredentials.CurrentFabricIndex")
}

// §11.18.4.2 CertificateChainTypeEnum
public struct CertificateChainType: ClusterEnum {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let deviceAttestationCertificate = Self(rawValue: 1)
    public static let productAttestationIntermediateCertificate = Self(rawValue: 2)

    public static let names: [UInt8: String] = [1: "DACCertificate", 2: "PAICertificate"]
}

// §11.18.4.3 NodeOperationalCertStatusEnum
public struct NodeOperationalCertStatus: ClusterEnum {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let ok = Self(rawValue: 0)
    public static let invalidPublicKey = Self(rawValue: 1)
    public static let invalidNodeOpId = Self(rawValue: 2)
    public static let invalidNOC = Self(rawValue: 3)
    public static let missingCsr = Self(rawValue: 4)
    public static let tableFull = Self(rawValue: 5)
    public static let invalidAdminSubject = Self(rawValue: 6)
    public static let fabricConflict = Self(rawValue: 9)
    public static let labelConflict = Self(rawValue: 10)
    public static let invalidFabricIndex = Self(rawValue: 11)

    public static let names: [UInt8: String] = [
        0: "OK", 1: "InvalidPublicKey", 2: "InvalidNodeOpId", 3: "InvalidNOC", 4: "MissingCsr", 5: "TableFull",
        6: "InvalidAdminSubject", 9: "FabricConflict", 10: "LabelConflict", 11: "InvalidFabricIndex",
    ]
}

// §11.18.4.5 FabricDescriptorStruct (fabric-scoped: FabricIndex is tag 254)
public struct FabricDescriptor: TLVCodable, Hashable, Sendable {
    public var rootPublicKey: [UInt8]
    public var vendorID: UInt16
    public var fabricID: UInt64
    public var nodeID: UInt64
    public var label: String
    public var vidVerificationStatement: [UInt8]?
    /// Required by the spec in reports; CircuitMatter leaves it out, so a missing one decodes as nil.
    public var fabricIndex: UInt8?

    public init(rootPublicKey: [UInt8], vendorID: UInt16, fabricID: UInt64, nodeID: UInt64, label: String,
                vidVerificationStatement: [UInt8]? = nil, fabricIndex: UInt8?) {
        self.rootPublicKey = rootPublicKey
        self.vendorID = vendorID
        self.fabricID = fabricID
        self.nodeID = nodeID
        self.label = label
        self.vidVerificationStatement = vidVerificationStatement
        self.fabricIndex = fabricIndex
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, rootPublicKey)
            TLVElement.context(2, vendorID)
            TLVElement.context(3, fabricID)
            TLVElement.context(4, nodeID)
            TLVElement.context(5, label)
            TLVElement.context(6, vidVerificationStatement)
            TLVElement.context(254, fabricIndex)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            rootPublicKey: try fields.required(1), vendorID: try fields.required(2), fabricID: try fields.required(3),
            nodeID: try fields.required(4), label: try fields.required(5), vidVerificationStatement: try fields.optional(6),
            fabricIndex: try fields.optional(254)
        )
    }
}

// §11.18.6.1 AttestationRequest Command
public struct AttestationRequest: ClusterCommand, Hashable {
    public typealias Response = AttestationResponse
    public static let clusterID = NodeOperationalCredentials.clusterID
    public static let commandID: UInt32 = 0x00
    public static let name = "OperationalCredentials.AttestationRequest"

    /// 32 random bytes the device signs back, proving the response fresh.
    public var attestationNonce: [UInt8]

    public init(attestationNonce: [UInt8]) {
        self.attestationNonce = attestationNonce
    }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(0, attestationNonce) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(attestationNonce: try element.structure().required(0))
    }
}

// §11.18.6.2 AttestationResponse Command
public struct AttestationResponse: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = 0x01
    /// The attestation-elements TLV (certification declaration, nonce, timestamp…), as signed.
    public var attestationElements: [UInt8]
    public var attestationSignature: [UInt8]

    public init(attestationElements: [UInt8], attestationSignature: [UInt8]) {
        self.attestationElements = attestationElements
        self.attestationSignature = attestationSignature
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, attestationElements)
            TLVElement.context(1, attestationSignature)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(attestationElements: try fields.required(0), attestationSignature: try fields.required(1))
    }
}

// §11.18.6.3 CertificateChainRequest Command
public struct CertificateChainRequest: ClusterCommand, Hashable {
    public typealias Response = CertificateChainResponse
    public static let clusterID = NodeOperationalCredentials.clusterID
    public static let commandID: UInt32 = 0x02
    public static let name = "OperationalCredentials.CertificateChainRequest"

    public var certificateType: CertificateChainType

    public init(certificateType: CertificateChainType) {
        self.certificateType = certificateType
    }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(0, certificateType) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(certificateType: try element.structure().required(0))
    }
}

// §11.18.6.4 CertificateChainResponse Command
public struct CertificateChainResponse: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = 0x03
    /// The DER X.509 certificate asked for.
    public var certificate: [UInt8]

    public init(certificate: [UInt8]) {
        self.certificate = certificate
    }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(0, certificate) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(certificate: try element.structure().required(0))
    }
}

// §11.18.6.5 CSRRequest Command
public struct CSRRequest: ClusterCommand, Hashable {
    public typealias Response = CSRResponse
    public static let clusterID = NodeOperationalCredentials.clusterID
    public static let commandID: UInt32 = 0x04
    public static let name = "OperationalCredentials.CSRRequest"

    /// 32 random bytes the device includes in the signed NOCSR elements.
    public var csrNonce: [UInt8]
    /// Sent only when true (renewing this fabric's NOC); absent means false.
    public var isForUpdateNOC: Bool?

    public init(csrNonce: [UInt8], isForUpdateNOC: Bool? = nil) {
        self.csrNonce = csrNonce
        self.isForUpdateNOC = isForUpdateNOC
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, csrNonce)
            TLVElement.context(1, isForUpdateNOC)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(csrNonce: try fields.required(0), isForUpdateNOC: try fields.optional(1))
    }
}

// §11.18.6.6 CSRResponse Command
public struct CSRResponse: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = 0x05
    /// The NOCSR-elements TLV (the PKCS #10 CSR and the nonce), as signed.
    public var nocsrElements: [UInt8]
    public var attestationSignature: [UInt8]

    public init(nocsrElements: [UInt8], attestationSignature: [UInt8]) {
        self.nocsrElements = nocsrElements
        self.attestationSignature = attestationSignature
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, nocsrElements)
            TLVElement.context(1, attestationSignature)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(nocsrElements: try fields.required(0), attestationSignature: try fields.required(1))
    }
}

// §11.18.6.8 AddNOC Command
public struct AddNOC: ClusterCommand, Hashable {
    public typealias Response = NOCResponse
    public static let clusterID = NodeOperationalCredentials.clusterID
    public static let commandID: UInt32 = 0x06
    public static let name = "OperationalCredentials.AddNOC"

    /// The node operational certificate, Matter TLV encoded.
    public var nocValue: [UInt8]
    public var icacValue: [UInt8]?
    /// The fabric's epoch key IPK (16 bytes).
    public var ipkValue: [UInt8]
    /// The node ID or CAT given Administer privilege on the new fabric.
    public var caseAdminSubject: UInt64
    public var adminVendorID: UInt16

    public init(nocValue: [UInt8], icacValue: [UInt8]? = nil, ipkValue: [UInt8], caseAdminSubject: UInt64, adminVendorID: UInt16) {
        self.nocValue = nocValue
        self.icacValue = icacValue
        self.ipkValue = ipkValue
        self.caseAdminSubject = caseAdminSubject
        self.adminVendorID = adminVendorID
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, nocValue)
            TLVElement.context(1, icacValue)
            TLVElement.context(2, ipkValue)
            TLVElement.context(3, caseAdminSubject)
            TLVElement.context(4, adminVendorID)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            nocValue: try fields.required(0), icacValue: try fields.optional(1), ipkValue: try fields.required(2),
            caseAdminSubject: try fields.required(3), adminVendorID: try fields.required(4)
        )
    }
}

// §11.18.6.10 NOCResponse Command
public struct NOCResponse: ClusterCommandResponse, Hashable {
    public static let commandID: UInt32? = 0x08
    public var statusCode: NodeOperationalCertStatus
    /// The fabric the command added or changed, when it succeeded.
    public var fabricIndex: UInt8?
    public var debugText: String?

    public init(statusCode: NodeOperationalCertStatus, fabricIndex: UInt8? = nil, debugText: String? = nil) {
        self.statusCode = statusCode
        self.fabricIndex = fabricIndex
        self.debugText = debugText
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, statusCode)
            TLVElement.context(1, fabricIndex)
            TLVElement.context(2, debugText)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(statusCode: try fields.required(0), fabricIndex: try fields.optional(1), debugText: try fields.optional(2))
    }
}

// §11.18.6.12 RemoveFabric Command
public struct RemoveFabric: ClusterCommand, Hashable {
    public typealias Response = NOCResponse
    public static let clusterID = NodeOperationalCredentials.clusterID
    public static let commandID: UInt32 = 0x0A
    public static let name = "OperationalCredentials.RemoveFabric"

    public var fabricIndex: UInt8

    public init(fabricIndex: UInt8) {
        self.fabricIndex = fabricIndex
    }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(0, fabricIndex) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(fabricIndex: try element.structure().required(0))
    }
}

// §11.18.6.13 AddTrustedRootCertificate Command (answered with a plain SUCCESS)
public struct AddTrustedRootCertificate: ClusterCommand, Hashable {
    public typealias Response = DefaultSuccess
    public static let clusterID = NodeOperationalCredentials.clusterID
    public static let commandID: UInt32 = 0x0B
    public static let name = "OperationalCredentials.AddTrustedRootCertificate"

    /// The root CA certificate, Matter TLV encoded.
    public var rootCACertificate: [UInt8]

    public init(rootCACertificate: [UInt8]) {
        self.rootCACertificate = rootCACertificate
    }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(0, rootCACertificate) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(rootCACertificate: try element.structure().required(0))
    }
}
