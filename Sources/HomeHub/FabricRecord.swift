import Foundation
import HomeRecords

/// The hub's fabric as stored: its identifiers, certificates (Matter TLV) and the IPK epoch key.
/// The epoch key is a secret: `description` and mirrors leave it out.
public struct FabricRecord: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    public var fabricID: UInt64
    public var hubNodeID: UInt64
    /// The vendor ID the hub claims as administrator (AdminVendorId of AddNOC).
    public var vendorID: UInt16
    public var rootCertificate: [UInt8]
    public var intermediateCertificate: [UInt8]?
    public var hubOperationalCertificate: [UInt8]
    /// The fabric's operational group epoch key, from which the IPK is derived.
    public var ipkEpochKey: [UInt8]
    public var createdAt: Date

    public init(
        fabricID: UInt64, hubNodeID: UInt64, vendorID: UInt16, rootCertificate: [UInt8],
        intermediateCertificate: [UInt8]?,
        hubOperationalCertificate: [UInt8], ipkEpochKey: [UInt8], createdAt: Date
    ) {
        self.fabricID = fabricID
        self.hubNodeID = hubNodeID
        self.vendorID = vendorID
        self.rootCertificate = rootCertificate
        self.intermediateCertificate = intermediateCertificate
        self.hubOperationalCertificate = hubOperationalCertificate
        self.ipkEpochKey = ipkEpochKey
        self.createdAt = createdAt
    }

    public var description: String {
        "fabric 0x\(String(fabricID, radix: 16, uppercase: true)), hub node 0x\(String(hubNodeID, radix: 16, uppercase: true)), "
            + "\(intermediateCertificate == nil ? "no" : "with an") intermediate CA, created \(createdAt)"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["fabricID": fabricID, "hubNodeID": hubNodeID, "vendorID": vendorID, "createdAt": createdAt])
    }
}
