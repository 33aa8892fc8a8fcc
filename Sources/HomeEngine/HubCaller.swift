import Foundation
import HomeHub
import HomeRecords
import HubWire

/// Who asks the hub: the principal whose rights are checked, and the process that owns an add-device session it
/// opens. A local user is who the kernel says (SO_PEERCRED on the socket, or this process's own user); a client of a
/// network door (the Matter-server API, the dashboard) holds exactly what `home serve` gave that door. No door makes
/// a caller up: a client cannot claim to be someone else, and no network client is the hub's user.
public struct HubCaller: Sendable, Hashable {
    public enum Principal: Sendable, Hashable {
        /// A user of this machine: the owner of the home's state directory holds every right; another user what
        /// the owner granted it (`SetCommissioningGrant`).
        case user(uid: UInt32)
        /// A client of a network door, with the rights its door was given.
        case client(HubClientPrincipal)
    }

    public let principal: Principal
    let process: ProcessIdentity?

    /// A local user, as the kernel names it.
    public init(uid: UInt32, process: ProcessIdentity?) {
        principal = .user(uid: uid)
        self.process = process
    }

    /// A client of a network door. It owns no process here: an add-device session is a local process's.
    public init(client: HubClientPrincipal) {
        principal = .client(client)
        process = nil
    }
}

/// A client of a network door as the door admitted it: how messages name it, and what it may do beyond seeing and
/// controlling the home's devices.
public struct HubClientPrincipal: Sendable, Hashable {
    public let name: String
    public let rights: HubRights

    public init(name: String, rights: HubRights) {
        self.name = name
        self.rights = rights
    }
}

/// What a caller may do beyond seeing, controlling and organising the home's devices (which every caller may).
/// The home's owner holds every right; another local user holds `devices` and `administer` in the structures the
/// owner granted it; a network client what its door was given (`home serve --api-grant`).
public struct HubRights: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Add and remove devices, update their firmware, manage their check-ins.
    public static let devices = HubRights(rawValue: 1 << 0)
    /// What changes who controls a node: share it with another ecosystem (a commissioning window), read and remove
    /// its other fabrics, and the commands and writes the data model reserves to administrators (ACL, fabrics,
    /// networks, group keys) whatever door sends them.
    public static let administer = HubRights(rawValue: 1 << 1)
    /// Keep and remove the Wi-Fi and Thread credentials the hub gives devices.
    public static let network = HubRights(rawValue: 1 << 2)
    /// Add firmware images to the hub and fetch them from the DCL.
    public static let firmware = HubRights(rawValue: 1 << 3)

    public static let all: HubRights = [.devices, .administer, .network, .firmware]

    /// Each right by the name `--api-grant` takes.
    static let named: [(name: String, right: HubRights)] = [
        ("devices", .devices), ("administer", .administer), ("network", .network), ("firmware", .firmware),
    ]

    /// A comma-separated list of rights ("devices,firmware"), "all", or "none".
    public init(parsing text: String) throws(HomeError) {
        var rights: HubRights = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = word.trimmingCharacters(in: .whitespaces).lowercased()
            switch word {
            case "all": rights.formUnion(.all)
            case "none": break
            default:
                guard let right = Self.named.first(where: { $0.name == word })?.right else {
                    throw HomeError(
                        .invalidArgument,
                        "\"\(word)\" is no right: give some of "
                            + Self.named.map(\.name).joined(separator: ", ") + ", or all, or none")
                }
                rights.formUnion(right)
            }
        }
        self = rights
    }

    public var description: String {
        let names = Self.named.filter { contains($0.right) }.map(\.name)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
