/// Thread's Operational Dataset (Thread 1.3 §8.10.1, MeshCoP TLVs: a type octet, a length octet, the value), read as
/// far as commissioning needs: the Extended PAN ID that names the network to ConnectNetwork (Matter Core §11.9.7.9).
/// The commissioner reads it to name the network, the device to know which network it was given.
public enum ThreadOperationalDataset {
    /// MeshCoP TLV type 2, 8 octets.
    private static let extendedPANIDType: UInt8 = 2
    private static let extendedPANIDLength = 8
    /// Matter Core §11.9.7.4: AddOrUpdateThreadNetwork's OperationalDataset is at most 254 octets.
    public static let maximumLength = 254

    /// Why a dataset cannot be used.
    public struct Malformed: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// MeshCoP TLV type 3, at most 16 octets of UTF-8.
    private static let networkNameType: UInt8 = 3

    /// Phase one: the dataset's TLVs by type (the last of a type counts), within its limits.
    static func values(of dataset: [UInt8]) throws(Malformed) -> [UInt8: [UInt8]] {
        guard !dataset.isEmpty, dataset.count <= maximumLength else {
            throw Malformed(
                description:
                    "a Thread operational dataset is 1 to \(maximumLength) bytes, this one has \(dataset.count)")
        }
        var offset = 0
        var values: [UInt8: [UInt8]] = [:]
        while offset < dataset.count {
            guard offset + 2 <= dataset.count, offset + 2 + Int(dataset[offset + 1]) <= dataset.count else {
                throw Malformed(description: "the Thread operational dataset is cut short at byte \(offset)")
            }
            let (type, length) = (dataset[offset], Int(dataset[offset + 1]))
            values[type] = Array(dataset[offset + 2..<offset + 2 + length])
            offset += 2 + length
        }
        return values
    }

    public static func extendedPANID(of dataset: [UInt8]) throws(Malformed) -> [UInt8] {
        guard let extendedPANID = try values(of: dataset)[extendedPANIDType] else {
            throw Malformed(description: "the Thread operational dataset has no Extended PAN ID")
        }
        guard extendedPANID.count == extendedPANIDLength else {
            throw Malformed(description: "the dataset's Extended PAN ID has \(extendedPANID.count) bytes, not 8")
        }
        return extendedPANID
    }

    /// The network's name, when the dataset holds one as UTF-8 (a name is no requirement of a dataset).
    public static func networkName(of dataset: [UInt8]) -> String? {
        guard let bytes = try? values(of: dataset)[networkNameType], (1...16).contains(bytes.count) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The network's channel (MeshCoP TLV 0: a channel page octet, then the channel in two), when the dataset says.
    public static func channel(of dataset: [UInt8]) -> UInt16? {
        guard let bytes = try? values(of: dataset)[0], bytes.count == 3 else { return nil }
        return UInt16(bytes[1]) << 8 | UInt16(bytes[2])
    }

    /// The network's PAN ID (MeshCoP TLV 1, two octets), when the dataset says.
    public static func panID(of dataset: [UInt8]) -> UInt16? {
        guard let bytes = try? values(of: dataset)[1], bytes.count == 2 else { return nil }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    /// The network's mesh-local prefix (MeshCoP TLV 7, eight octets), when the dataset says.
    public static func meshLocalPrefix(of dataset: [UInt8]) -> [UInt8]? {
        guard let bytes = try? values(of: dataset)[7], bytes.count == 8 else { return nil }
        return bytes
    }

    /// A Thread dataset's bytes from its hex text (as `ot-ctl dataset active -x` prints it; white space ignored); nil
    /// when it is not two hex digits a byte.
    public static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8.filter { !Character(UnicodeScalar($0)).isWhitespace })
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
