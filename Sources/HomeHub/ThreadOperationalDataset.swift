/// Thread's Operational Dataset (Thread 1.3 §8.10.1, MeshCoP TLVs: a type octet, a length octet, the value), read as
/// far as commissioning needs: the Extended PAN ID that names the network to ConnectNetwork (Matter Core §11.9.7.9).
enum ThreadOperationalDataset {
    /// MeshCoP TLV type 2, 8 octets.
    private static let extendedPANIDType: UInt8 = 2
    /// Matter Core §11.9.7.4: AddOrUpdateThreadNetwork's OperationalDataset is at most 254 octets.
    static let maximumLength = 254

    static func extendedPANID(of dataset: [UInt8]) throws(CommissioningFailure) -> [UInt8] {
        guard !dataset.isEmpty, dataset.count <= maximumLength else {
            throw CommissioningFailure(
                .refused, "a Thread operational dataset is 1 to \(maximumLength) bytes, this one has \(dataset.count)")
        }
        var offset = 0
        var extendedPANID: [UInt8]?
        while offset < dataset.count {
            guard offset + 2 <= dataset.count, offset + 2 + Int(dataset[offset + 1]) <= dataset.count else {
                throw CommissioningFailure(.refused, "the Thread operational dataset is cut short at byte \(offset)")
            }
            let (type, length) = (dataset[offset], Int(dataset[offset + 1]))
            if type == extendedPANIDType {
                guard length == 8 else {
                    throw CommissioningFailure(.refused, "the dataset's Extended PAN ID has \(length) bytes, not 8")
                }
                extendedPANID = Array(dataset[offset + 2..<offset + 2 + length])
            }
            offset += 2 + length
        }
        guard let extendedPANID else {
            throw CommissioningFailure(.refused, "the Thread operational dataset has no Extended PAN ID")
        }
        return extendedPANID
    }
}
