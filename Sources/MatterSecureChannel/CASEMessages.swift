import MatterTLV

// Matter Core §4.14.2.3 Sigma1
public struct Sigma1: Hashable, Sendable, TLVCodable {
    public var initiatorRandom: [UInt8]
    public var initiatorSessionID: UInt16
    public var destinationID: [UInt8]
    public var initiatorEphemeralPublicKey: [UInt8]
    public var initiatorSessionParameters: SessionParameters?
    public var resumptionID: [UInt8]?
    public var initiatorResumeMIC: [UInt8]?

    public init(
        initiatorRandom: [UInt8], initiatorSessionID: UInt16, destinationID: [UInt8],
        initiatorEphemeralPublicKey: [UInt8],
        initiatorSessionParameters: SessionParameters? = nil, resumptionID: [UInt8]? = nil,
        initiatorResumeMIC: [UInt8]? = nil
    ) {
        self.initiatorRandom = initiatorRandom
        self.initiatorSessionID = initiatorSessionID
        self.destinationID = destinationID
        self.initiatorEphemeralPublicKey = initiatorEphemeralPublicKey
        self.initiatorSessionParameters = initiatorSessionParameters
        self.resumptionID = resumptionID
        self.initiatorResumeMIC = initiatorResumeMIC
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, initiatorRandom)
            TLVElement.context(2, initiatorSessionID)
            TLVElement.context(3, destinationID)
            TLVElement.context(4, initiatorEphemeralPublicKey)
            TLVElement.context(5, initiatorSessionParameters)
            TLVElement.context(6, resumptionID)
            TLVElement.context(7, initiatorResumeMIC)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            initiatorRandom: try fields.required(1), initiatorSessionID: try fields.required(2),
            destinationID: try fields.required(3), initiatorEphemeralPublicKey: try fields.required(4),
            initiatorSessionParameters: try fields.optional(5), resumptionID: try fields.optional(6),
            initiatorResumeMIC: try fields.optional(7)
        )
    }
}

// Matter Core §4.14.2.3 Sigma2
public struct Sigma2: Hashable, Sendable, TLVCodable {
    public var responderRandom: [UInt8]
    public var responderSessionID: UInt16
    public var responderEphemeralPublicKey: [UInt8]
    /// TBEData2 encrypted with S2K.
    public var encrypted2: [UInt8]
    public var responderSessionParameters: SessionParameters?

    public init(
        responderRandom: [UInt8], responderSessionID: UInt16, responderEphemeralPublicKey: [UInt8], encrypted2: [UInt8],
        responderSessionParameters: SessionParameters? = nil
    ) {
        self.responderRandom = responderRandom
        self.responderSessionID = responderSessionID
        self.responderEphemeralPublicKey = responderEphemeralPublicKey
        self.encrypted2 = encrypted2
        self.responderSessionParameters = responderSessionParameters
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, responderRandom)
            TLVElement.context(2, responderSessionID)
            TLVElement.context(3, responderEphemeralPublicKey)
            TLVElement.context(4, encrypted2)
            TLVElement.context(5, responderSessionParameters)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            responderRandom: try fields.required(1), responderSessionID: try fields.required(2),
            responderEphemeralPublicKey: try fields.required(3), encrypted2: try fields.required(4),
            responderSessionParameters: try fields.optional(5)
        )
    }
}

// Matter Core §4.14.2.3 Sigma2_Resume
public struct Sigma2Resume: Hashable, Sendable, TLVCodable {
    /// The fresh ID the responder files the resumed session's record under.
    public var resumptionID: [UInt8]
    public var sigma2ResumeMIC: [UInt8]
    public var responderSessionID: UInt16
    public var responderSessionParameters: SessionParameters?

    public init(
        resumptionID: [UInt8], sigma2ResumeMIC: [UInt8], responderSessionID: UInt16,
        responderSessionParameters: SessionParameters? = nil
    ) {
        self.resumptionID = resumptionID
        self.sigma2ResumeMIC = sigma2ResumeMIC
        self.responderSessionID = responderSessionID
        self.responderSessionParameters = responderSessionParameters
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, resumptionID)
            TLVElement.context(2, sigma2ResumeMIC)
            TLVElement.context(3, responderSessionID)
            TLVElement.context(4, responderSessionParameters)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            resumptionID: try fields.required(1), sigma2ResumeMIC: try fields.required(2),
            responderSessionID: try fields.required(3), responderSessionParameters: try fields.optional(4)
        )
    }
}

// Matter Core §4.14.2.3 Sigma3
public struct Sigma3: Hashable, Sendable, TLVCodable {
    /// TBEData3 encrypted with S3K.
    public var encrypted3: [UInt8]

    public init(encrypted3: [UInt8]) { self.encrypted3 = encrypted3 }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(1, encrypted3) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(encrypted3: try element.structure().required(1))
    }
}

// Matter Core §4.14.2.3 sigma-2-tbsdata and sigma-3-tbsdata: what each side signs. Both have the same
// shape: the signer's NOC, its ICAC, then the signer's and the other side's ephemeral public keys.
struct SigmaSignedData: TLVEncodable {
    var noc: [UInt8]
    var icac: [UInt8]?
    var signerEphemeralPublicKey: [UInt8]
    var otherEphemeralPublicKey: [UInt8]

    func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, noc)
            TLVElement.context(2, icac)
            TLVElement.context(3, signerEphemeralPublicKey)
            TLVElement.context(4, otherEphemeralPublicKey)
        }
    }
}

// Matter Core §4.14.2.3 sigma-2-tbedata and sigma-3-tbedata: the encrypted part. Sigma2's also carries a
// resumption ID (tag 4).
struct SigmaEncryptedData: TLVCodable {
    var noc: [UInt8]
    var icac: [UInt8]?
    var signature: [UInt8]
    var resumptionID: [UInt8]?

    func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, noc)
            TLVElement.context(2, icac)
            TLVElement.context(3, signature)
            TLVElement.context(4, resumptionID)
        }
    }

    init(noc: [UInt8], icac: [UInt8]?, signature: [UInt8], resumptionID: [UInt8]?) {
        self.noc = noc
        self.icac = icac
        self.signature = signature
        self.resumptionID = resumptionID
    }

    init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            noc: try fields.required(1), icac: try fields.optional(2), signature: try fields.required(3),
            resumptionID: try fields.optional(4))
    }
}
