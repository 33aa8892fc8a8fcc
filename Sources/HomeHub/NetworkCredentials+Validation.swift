import MatterNode

// Matter Core §11.9.7.3 AddOrUpdateWiFiNetwork (SSID 1–32 octets; credentials empty for an open network, else a
// passphrase of 8–63 octets or a 64-hex-digit PSK) and §11.9.7.4 AddOrUpdateThreadNetwork (an operational dataset of
// at most 254 octets, here also required to name its network by Extended PAN ID).
extension NetworkCredentials {
    /// Why network credentials cannot be used; never repeats the secret.
    public struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Wi-Fi credentials, checked.
    public static func wifi(ssid: String, passphrase: [UInt8]) throws(Invalid) -> NetworkCredentials {
        let name = Array(ssid.utf8)
        guard (1...32).contains(name.count) else {
            throw Invalid(description: "a Wi-Fi SSID is 1 to 32 bytes, \"\(ssid)\" is \(name.count)")
        }
        let isPSK =
            passphrase.count == 64
            && passphrase.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
        guard passphrase.isEmpty || (8...63).contains(passphrase.count) || isPSK else {
            throw Invalid(
                description:
                    "a Wi-Fi passphrase is 8 to 63 characters (or a 64-digit hex PSK, or none for an open network); this one has \(passphrase.count)"
            )
        }
        return .wifi(ssid: name, credentials: passphrase)
    }

    /// A Thread operational dataset, checked: TLVs that name the network by Extended PAN ID.
    public static func thread(dataset: [UInt8]) throws(Invalid) -> NetworkCredentials {
        do {
            _ = try ThreadOperationalDataset.extendedPANID(of: dataset)
        } catch {
            throw Invalid(description: error.description)
        }
        return .thread(operationalDataset: dataset)
    }

    /// An ID credentials are stored under (matterjs-server's named lists): 1 to 64 characters, none a control
    /// character.
    public static func validatedID(_ id: String) throws(Invalid) -> String {
        guard (1...64).contains(id.count),
            !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw Invalid(description: "a credentials ID is 1 to 64 characters, none a control character")
        }
        return id
    }

    /// The network in words: `Wi-Fi network "home"`, `Thread network DEAD00BEEF00CAFE`.
    public var networkDescription: String {
        switch self {
        case .wifi: "Wi-Fi network \"\(shownName)\""
        case .thread: "Thread network \(shownName)"
        }
    }

    /// What may be shown of them: the SSID, or the Thread network's Extended PAN ID; never the secret.
    public var shownName: String {
        switch self {
        case .wifi(let ssid, _): String(decoding: ssid, as: UTF8.self)
        case .thread(let dataset):
            ((try? ThreadOperationalDataset.extendedPANID(of: dataset)) ?? []).map {
                ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true)
            }.joined()
        }
    }
}
