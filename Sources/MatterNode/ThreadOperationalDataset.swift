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

    public static func extendedPANID(of dataset: [UInt8]) throws(Malformed) -> [UInt8] {
        guard !dataset.isEmpty, dataset.count <= maximumLength else {
            throw Malformed(
                description:
                    "a Thread operational dataset is 1 to \(maximumLength) bytes, this one has \(dataset.count)")
        }
        var offset = 0
        var extendedPANID: [UInt8]?
        while offset < dataset.count {
            guard offset + 2 <= dataset.count, offset + 2 + Int(dataset[offset + 1]) <= dataset.count else {
                throw Malformed(description: "the Thread operational dataset is cut short at byte \(offset)")
            }
            let (type, length) = (dataset[offset], Int(dataset[offset + 1]))
            if type == extendedPANIDType {
                guard length == extendedPANIDLength else {
                    throw Malformed(description: "the dataset's Extended PAN ID has \(length) bytes, not 8")
                }
                extendedPANID = Array(dataset[offset + 2..<offset + 2 + length])
            }
            offset += 2 + length
        }
        guard let extendedPANID else {
            throw Malformed(description: "the Thread operational dataset has no Extended PAN ID")
        }
        return extendedPANID
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
