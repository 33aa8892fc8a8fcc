// Matter Core §4.3.1 Commissionable Node Discovery: what a node publishes as `_matterc._udp` while it can be commissioned.
public struct CommissionableAdvertisement: Hashable, Sendable {
    /// §4.3.1.1: 16 uppercase hex digits, chosen at random (see `randomInstanceName(using:)`).
    public var instanceName: String
    public var port: UInt16
    /// `D` and the `_L`/`_S` subtypes: the 12-bit discriminator.
    public var longDiscriminator: UInt16
    /// `CM`, and the `_CM` subtype when open.
    public var commissioningMode: CommissioningMode
    /// `VP` (with `productID`) and the `_V` subtype.
    public var vendorID: UInt16?
    /// `VP`, after the "+"; written only with a vendor ID.
    public var productID: UInt16?
    /// `DT` and the `_T` subtype: the primary device type.
    public var deviceType: UInt32?
    /// `DN`: a name a person recognises, at most 32 bytes.
    public var deviceName: String?
    /// `RI`: rotating device identifier, in hex, at most 100 digits.
    public var rotatingID: String?
    /// `PH`: pairing hint bitmap (how to put the device in commissioning mode).
    public var pairingHint: UInt32?
    /// `PI`: pairing instruction the hint refers to, at most 128 bytes.
    public var pairingInstruction: String?
    /// SII, SAI, SAT, T, ICD.
    public var session: AdvertisedSessionParameters

    public init(
        instanceName: String, port: UInt16, longDiscriminator: UInt16, commissioningMode: CommissioningMode = .basic,
        vendorID: UInt16? = nil, productID: UInt16? = nil, deviceType: UInt32? = nil, deviceName: String? = nil,
        rotatingID: String? = nil, pairingHint: UInt32? = nil, pairingInstruction: String? = nil,
        session: AdvertisedSessionParameters = AdvertisedSessionParameters()
    ) {
        self.instanceName = instanceName
        self.port = port
        self.longDiscriminator = longDiscriminator
        self.commissioningMode = commissioningMode
        self.vendorID = vendorID
        self.productID = productID
        self.deviceType = deviceType
        self.deviceName = deviceName
        self.rotatingID = rotatingID
        self.pairingHint = pairingHint
        self.pairingInstruction = pairingInstruction
        self.session = session
    }

    /// §4.3.1.1: a fresh 64-bit random instance name as 16 uppercase hex digits.
    public static func randomInstanceName(using generator: inout some RandomNumberGenerator) -> String {
        MatterServiceName.hex16(generator.next())
    }

    /// `<instance>._matterc._udp.local`.
    public var serviceInstanceName: DNSName { MatterServiceName.commissionable.prepending(instanceName) }

    /// §4.3.1.3: `_L` and `_S` always, `_V` and `_T` when known, `_CM` while open.
    public var subtypes: [CommissionableSubtype] {
        var subtypes: [CommissionableSubtype] = [
            .longDiscriminator(longDiscriminator), .shortDiscriminator(UInt8(longDiscriminator >> 8)),
        ]
        if let vendorID { subtypes.append(.vendor(vendorID)) }
        if let deviceType { subtypes.append(.deviceType(deviceType)) }
        if commissioningMode != .closed { subtypes.append(.commissioningMode) }
        return subtypes
    }

    /// §4.3.1.4–§4.3.1.9 and §4.3.4, checked against each key's limits.
    func txtEntries() throws(AdvertisementError) -> [TXTEntry] {
        guard instanceName.utf8.count == 16,
            instanceName.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) })
        else {
            throw .invalidInstanceName(instanceName)
        }
        guard longDiscriminator <= DiscoveryLimits.maximumDiscriminator else {
            throw .discriminatorOutOfRange(longDiscriminator)
        }
        var entries = [
            TXTEntry(key: "D", value: String(longDiscriminator)),
            TXTEntry(key: "CM", value: String(commissioningMode.rawValue)),
        ]
        if let vendorID {
            entries.append(TXTEntry(key: "VP", value: productID.map { "\(vendorID)+\($0)" } ?? String(vendorID)))
        }
        if let deviceType { entries.append(TXTEntry(key: "DT", value: String(deviceType))) }
        func text(_ key: String, _ value: String?, maximum: Int) throws(AdvertisementError) {
            guard let value else { return }
            guard value.utf8.count <= maximum else {
                throw .valueTooLong(key: key, length: value.utf8.count, maximum: maximum)
            }
            entries.append(TXTEntry(key: key, value: value))
        }
        try text("DN", deviceName, maximum: DiscoveryLimits.maximumDeviceNameLength)
        try text("RI", rotatingID, maximum: DiscoveryLimits.maximumRotatingIDLength)
        if let pairingHint { entries.append(TXTEntry(key: "PH", value: String(pairingHint))) }
        try text("PI", pairingInstruction, maximum: DiscoveryLimits.maximumPairingInstructionLength)
        return entries + (try session.txtEntries())
    }
}
