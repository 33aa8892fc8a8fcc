import MatterTLV

// Matter Core §4.14.1.2 PBKDFParamRequest
public struct PBKDFParamRequest: Hashable, Sendable, TLVCodable {
    public var initiatorRandom: [UInt8]
    public var initiatorSessionID: UInt16
    /// 0: the default commissioning passcode (§4.14.1.2).
    public var passcodeID: UInt16
    /// True when the initiator already knows the PBKDF parameters and the responder may leave them out.
    public var hasPBKDFParameters: Bool
    public var initiatorSessionParameters: SessionParameters?

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, initiatorRandom)
            TLVElement.context(2, initiatorSessionID)
            TLVElement.context(3, passcodeID)
            TLVElement.context(4, hasPBKDFParameters)
            TLVElement.context(5, initiatorSessionParameters)
        }
    }

    public init(
        initiatorRandom: [UInt8], initiatorSessionID: UInt16, passcodeID: UInt16 = 0, hasPBKDFParameters: Bool = false,
        initiatorSessionParameters: SessionParameters? = nil
    ) {
        self.initiatorRandom = initiatorRandom
        self.initiatorSessionID = initiatorSessionID
        self.passcodeID = passcodeID
        self.hasPBKDFParameters = hasPBKDFParameters
        self.initiatorSessionParameters = initiatorSessionParameters
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            initiatorRandom: try fields.required(1), initiatorSessionID: try fields.required(2),
            passcodeID: try fields.required(3), hasPBKDFParameters: try fields.required(4),
            initiatorSessionParameters: try fields.optional(5)
        )
    }
}

// Matter Core §4.14.1.2 Crypto_PBKDFParameterSet
public struct PBKDFParameters: Hashable, Sendable, TLVCodable {
    public var iterations: UInt32
    public var salt: [UInt8]

    public init(iterations: UInt32, salt: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, iterations)
            TLVElement.context(2, salt)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(iterations: try fields.required(1), salt: try fields.required(2))
    }
}

// Matter Core §4.14.1.2 PBKDFParamResponse
public struct PBKDFParamResponse: Hashable, Sendable, TLVCodable {
    public var initiatorRandom: [UInt8]
    public var responderRandom: [UInt8]
    public var responderSessionID: UInt16
    /// Absent only when the request said the initiator already has them.
    public var pbkdfParameters: PBKDFParameters?
    public var responderSessionParameters: SessionParameters?

    public init(
        initiatorRandom: [UInt8], responderRandom: [UInt8], responderSessionID: UInt16,
        pbkdfParameters: PBKDFParameters?, responderSessionParameters: SessionParameters? = nil
    ) {
        self.initiatorRandom = initiatorRandom
        self.responderRandom = responderRandom
        self.responderSessionID = responderSessionID
        self.pbkdfParameters = pbkdfParameters
        self.responderSessionParameters = responderSessionParameters
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, initiatorRandom)
            TLVElement.context(2, responderRandom)
            TLVElement.context(3, responderSessionID)
            TLVElement.context(4, pbkdfParameters)
            TLVElement.context(5, responderSessionParameters)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(
            initiatorRandom: try fields.required(1), responderRandom: try fields.required(2),
            responderSessionID: try fields.required(3), pbkdfParameters: try fields.optional(4),
            responderSessionParameters: try fields.optional(5)
        )
    }
}

// Matter Core §4.14.1.3 Pake1: the prover's share pA (X).
public struct Pake1: Hashable, Sendable, TLVCodable {
    public var pA: [UInt8]

    public init(pA: [UInt8]) { self.pA = pA }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(1, pA) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(pA: try element.structure().required(1))
    }
}

// Matter Core §4.14.1.3 Pake2: the verifier's share pB (Y) and its confirmation cB.
public struct Pake2: Hashable, Sendable, TLVCodable {
    public var pB: [UInt8]
    public var cB: [UInt8]

    public init(pB: [UInt8], cB: [UInt8]) {
        self.pB = pB
        self.cB = cB
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(1, pB)
            TLVElement.context(2, cB)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(pB: try fields.required(1), cB: try fields.required(2))
    }
}

// Matter Core §4.14.1.3 Pake3: the prover's confirmation cA.
public struct Pake3: Hashable, Sendable, TLVCodable {
    public var cA: [UInt8]

    public init(cA: [UInt8]) { self.cA = cA }

    public func tlvValue() -> TLVValue {
        .structure { TLVElement.context(1, cA) }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(cA: try element.structure().required(1))
    }
}

extension TLVEncodable {
    /// The message as an anonymous TLV structure, the form every secure-channel payload takes.
    func encodedPayload() -> [UInt8] {
        TLVWriter.encode(TLVElement(tlvValue()))
    }
}

extension TLVDecodable {
    static func decodePayload(_ bytes: [UInt8], name: String) throws(SecureChannelError) -> Self {
        do {
            return try Self(tlv: TLVReader.decode(bytes))
        } catch {
            throw .malformedMessage(name, error)
        }
    }
}
