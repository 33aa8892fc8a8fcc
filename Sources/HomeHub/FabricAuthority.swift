import Foundation
import HomeRecords
import MatterCertificates
import MatterCrypto
import MatterNode
import MatterSecureChannel

/// The hub's fabric (Matter Core §6.4 Node Operational Credentials): its root CA (RCAC), optional intermediate (ICAC),
/// IPK epoch key and the hub's own node identity. Created once, persisted, and loaded by every later process.
public struct FabricAuthority: Sendable {
    /// AdminVendorId of AddNOC (Matter Core §11.18.6.8): a test vendor ID, since we are not a certified vendor.
    public static let adminVendorID = HubConstants.adminVendorID

    public let fabric: FabricRecord
    public let rootCertificate: MatterCertificate
    /// Matter Core §4.3.2.2: names the fabric in operational DNS-SD instance names.
    public let compressedFabricID: [UInt8]
    /// The same eight bytes as one big-endian number: what DNS-SD instance names and Home Assistant's device IDs show.
    public var compressedFabricIDNumber: UInt64 { compressedFabricID.reduce(0) { $0 << 8 | UInt64($1) } }
    /// Matter Core §4.15.2: the IPK, derived from the epoch key and the compressed fabric ID; sent in AddNOC.
    public let identityProtectionKey: [UInt8]
    /// What the hub proves in CASE: its NOC, key and the fabric's facts.
    public let operationalCredentials: OperationalCredentials
    /// Signs NOCs: the ICAC when the fabric has one, the root otherwise.
    private let issuer: CertificateAuthority
    private let store: HubStore
    private let random: any RandomSource

    public var fabricID: UInt64 { fabric.fabricID }
    public var hubNodeID: UInt64 { fabric.hubNodeID }
    public var rootCertificateTLV: [UInt8] { fabric.rootCertificate }
    public var intermediateCertificateTLV: [UInt8]? { fabric.intermediateCertificate }
    /// CaseAdminSubject of AddNOC (Matter Core §11.18.6.8): the hub's node ID, so its CASE sessions get Administer.
    public var caseAdminSubject: UInt64 { fabric.hubNodeID }
    /// Checks peers' certificates against this fabric's root.
    public var peerValidator: FabricPeerValidator { FabricPeerValidator(root: rootCertificate) }

    /// Loads the fabric from `store` and `keys`, creating it when the store has none. `withIntermediate` only matters
    /// at creation: NOCs are then signed by an ICAC the root signed, instead of by the root itself.
    public init(
        store: HubStore, keys: KeyStore, withIntermediate: Bool = false,
        random: some RandomSource = SystemRandom()
    ) async throws(FabricAuthorityError) {
        let record: FabricRecord
        if let existing = try await Self.storing({ () async throws(HubStoreError) in try await store.fabric() }) {
            record = existing
        } else {
            record = try await Self.create(in: store, keys: keys, withIntermediate: withIntermediate, random: random)
        }
        try await self.init(record, store: store, keys: keys, random: random)
    }

    /// A NOC for the key in a device's CSR (whose signature is checked first), with the ICAC that chains it to the root.
    public func issueNOC(
        for request: CertificateSigningRequest, nodeID: UInt64
    ) throws(FabricAuthorityError) -> (noc: [UInt8], icac: [UInt8]?) {
        guard HubConstants.operationalNodeIDs.contains(nodeID) else { throw .invalidNodeID(nodeID) }
        let serialNumber = CertificateAuthority.randomSerialNumber(using: self.random)
        let certificate = try Self.certifying { () throws(CertificateError) in
            try issuer.issueOperational(
                for: request, nodeID: nodeID, fabricID: fabric.fabricID, serialNumber: serialNumber,
                notBefore: Self.matterTimeNow(), notAfter: HubConstants.certificateNotAfter)
        }
        return (
            try Self.certifying { () throws(CertificateError) in try certificate.tlvEncoded() },
            fabric.intermediateCertificate
        )
    }

    /// A random operational node ID that no node, earlier allocation or the hub uses, recorded as taken.
    public func allocateNodeID() async throws(FabricAuthorityError) -> UInt64 {
        for _ in 0..<HubConstants.nodeIDAllocationAttempts {
            let candidate = Self.randomIdentifier(in: HubConstants.operationalNodeIDs, random)
            if try await Self.storing({ () async throws(HubStoreError) in try await store.reserveNodeID(candidate) }) {
                return candidate
            }
        }
        throw .nodeIDsExhausted(attempts: HubConstants.nodeIDAllocationAttempts)
    }

    private init(
        _ record: FabricRecord, store: HubStore, keys: KeyStore, random: some RandomSource
    ) async throws(FabricAuthorityError) {
        let rootKey = try await Self.loading(.rootCA, of: record, from: keys)
        let root = try Self.certifying { () throws(CertificateError) in
            try MatterCertificate(tlv: record.rootCertificate)
        }
        try Self.requireMatch(
            rootKey, root, keys.path(of: .rootCA, fabricID: record.fabricID), "the root certificate (RCAC)")
        var issuer = try Self.certifying { () throws(CertificateError) in
            try CertificateAuthority(certificate: root, signingKey: rootKey)
        }
        if let icacBytes = record.intermediateCertificate {
            let icacKey = try await Self.loading(.intermediateCA, of: record, from: keys)
            let icac = try Self.certifying { () throws(CertificateError) in try MatterCertificate(tlv: icacBytes) }
            try Self.requireMatch(
                icacKey, icac, keys.path(of: .intermediateCA, fabricID: record.fabricID),
                "the intermediate certificate (ICAC)")
            issuer = try Self.certifying { () throws(CertificateError) in
                try CertificateAuthority(certificate: icac, signingKey: icacKey)
            }
        }
        let operationalKey = try await Self.loading(.hubOperational, of: record, from: keys)
        let noc = try Self.certifying { () throws(CertificateError) in
            try MatterCertificate(tlv: record.hubOperationalCertificate)
        }
        try Self.requireMatch(
            operationalKey, noc, keys.path(of: .hubOperational, fabricID: record.fabricID), "the hub's NOC")

        let compressedFabricID = try Self.deriving { () throws(CryptoError) in
            try OperationalIdentity.compressedFabricID(rootPublicKey: root.publicKey, fabricID: record.fabricID)
        }
        let identityProtectionKey = try Self.deriving { () throws(CryptoError) in
            try OperationalIdentity.identityProtectionKey(
                epochKey: record.ipkEpochKey, compressedFabricID: compressedFabricID)
        }
        let credentials = OperationalCredentials(
            fabricID: record.fabricID, nodeID: record.hubNodeID, rootPublicKey: root.publicKey,
            identityProtectionKey: identityProtectionKey,
            noc: record.hubOperationalCertificate, icac: record.intermediateCertificate, operationalKey: operationalKey)
        // The stored hub NOC must be one our own validator accepts, for the node and fabric the row names.
        do {
            let proven = try FabricPeerValidator(root: root).validate(
                noc: credentials.noc, icac: credentials.icac, credentials: credentials)
            guard proven.nodeID == record.hubNodeID else {
                throw FabricAuthorityError.inconsistent(
                    "the hub's NOC names node 0x\(hex(proven.nodeID)), the store node 0x\(hex(record.hubNodeID))")
            }
        } catch let error as SecureChannelError {
            throw .inconsistent("the hub's own NOC does not validate: \(error)")
        } catch let error as FabricAuthorityError {
            throw error
        } catch {
            throw .inconsistent("\(error)")
        }

        self.fabric = record
        self.rootCertificate = root
        self.compressedFabricID = compressedFabricID
        self.identityProtectionKey = identityProtectionKey
        self.operationalCredentials = credentials
        self.issuer = issuer
        self.store = store
        self.random = random
    }

    /// Generates the fabric and persists it: keys first (each file written atomically), then the row in one
    /// transaction. A crash before the row leaves only unused key files; the next process starts over.
    private static func create(
        in store: HubStore, keys: KeyStore, withIntermediate: Bool,
        random: some RandomSource
    ) async throws(FabricAuthorityError) -> FabricRecord {
        let fabricID = randomIdentifier(in: HubConstants.fabricIDs, random)
        let hubNodeID = randomIdentifier(in: HubConstants.operationalNodeIDs, random)
        let notBefore = matterTimeNow()
        let rootKey = P256.PrivateKey(using: random)
        let root = try certifying { () throws(CertificateError) in
            try CertificateAuthority.root(
                signingKey: rootKey, rcacID: HubConstants.rootCAID, fabricID: fabricID,
                serialNumber: CertificateAuthority.randomSerialNumber(using: random),
                notBefore: notBefore, notAfter: HubConstants.certificateNotAfter)
        }
        var issuer = root
        var intermediate: (key: P256.PrivateKey, certificate: MatterCertificate)?
        if withIntermediate {
            let icacKey = P256.PrivateKey(using: random)
            let icac = try certifying { () throws(CertificateError) in
                try root.issueIntermediate(
                    publicKey: icacKey.publicKey.x963Representation, icacID: HubConstants.intermediateCAID,
                    fabricID: fabricID, serialNumber: CertificateAuthority.randomSerialNumber(using: random),
                    notBefore: notBefore, notAfter: HubConstants.certificateNotAfter)
            }
            issuer = try certifying { () throws(CertificateError) in
                try CertificateAuthority(certificate: icac, signingKey: icacKey)
            }
            intermediate = (icacKey, icac)
        }
        let operationalKey = P256.PrivateKey(using: random)
        let noc = try certifying { () throws(CertificateError) in
            try issuer.issueOperational(
                publicKey: operationalKey.publicKey.x963Representation, nodeID: hubNodeID, fabricID: fabricID,
                serialNumber: CertificateAuthority.randomSerialNumber(using: random),
                notBefore: notBefore, notAfter: HubConstants.certificateNotAfter)
        }
        let record = FabricRecord(
            fabricID: fabricID, hubNodeID: hubNodeID, vendorID: adminVendorID,
            rootCertificate: try certifying { () throws(CertificateError) in try root.certificate.tlvEncoded() },
            intermediateCertificate: try intermediate.map { entry throws(FabricAuthorityError) in
                try certifying { () throws(CertificateError) in try entry.certificate.tlvEncoded() }
            },
            hubOperationalCertificate: try certifying { () throws(CertificateError) in try noc.tlvEncoded() },
            ipkEpochKey: random.bytes(HubConstants.epochKeyLength), createdAt: HubStore.now())

        do {
            try await keys.save(rootKey, as: .rootCA, fabricID: fabricID)
            if let intermediate { try await keys.save(intermediate.key, as: .intermediateCA, fabricID: fabricID) }
            try await keys.save(operationalKey, as: .hubOperational, fabricID: fabricID)
        } catch {
            throw .keys(error)
        }
        do {
            try await store.insertFabric(record)
            return record
        } catch .fabricExists {
            // Another process created the fabric first: use theirs.
            guard let theirs = try await storing({ () async throws(HubStoreError) in try await store.fabric() }) else {
                throw .inconsistent("the store reported a fabric, then none")
            }
            return theirs
        } catch {
            throw .store(error)
        }
    }

    private static func loading(
        _ role: KeyStore.Role, of record: FabricRecord, from keys: KeyStore
    ) async throws(FabricAuthorityError) -> P256.PrivateKey {
        do {
            return try await keys.load(role, fabricID: record.fabricID)
        } catch {
            throw .keys(error)
        }
    }

    private static func requireMatch(
        _ key: P256.PrivateKey, _ certificate: MatterCertificate, _ path: String,
        _ name: String
    ) throws(FabricAuthorityError) {
        guard certificate.publicKey == key.publicKey.x963Representation else {
            throw .keyMismatch(path: path, certificate: name)
        }
    }

    /// A uniform draw, up to a bias below 2^-59 for the ranges used here (each nearly 2^64 wide).
    private static func randomIdentifier(in range: ClosedRange<UInt64>, _ random: any RandomSource) -> UInt64 {
        let drawn = random.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let width = range.upperBound - range.lowerBound
        return range.lowerBound + (width == .max ? drawn : drawn % (width + 1))
    }

    /// Seconds since the Matter epoch (Matter Core §3.5.2), for notBefore.
    private static func matterTimeNow() -> UInt32 {
        let seconds = Int64(Date().timeIntervalSince1970) - HubConstants.matterEpochOffset
        return UInt32(clamping: seconds)
    }

    private static func storing<T>(
        _ body: () async throws(HubStoreError) -> T
    ) async throws(FabricAuthorityError) -> T {
        do { return try await body() } catch { throw .store(error) }
    }

    private static func certifying<T>(_ body: () throws(CertificateError) -> T) throws(FabricAuthorityError) -> T {
        do { return try body() } catch { throw .certificate(error) }
    }

    private static func deriving<T>(_ body: () throws(CryptoError) -> T) throws(FabricAuthorityError) -> T {
        do { return try body() } catch { throw .crypto(error) }
    }
}

private func hex(_ value: UInt64) -> String {
    String(value, radix: 16, uppercase: true)
}
