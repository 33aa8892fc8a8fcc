import Foundation

// The documents of OpenThread's border-router REST API (ot-br-posix `src/rest/openapi.yaml`, API 0.5; JSON:API
// documents, `application/vnd.api+json`) that a diagnostics collection reads. Parsed in two phases: decoded as sent,
// then judged (`ThreadNodeDiagnostics.init(_:)`), so a field that is present but malformed is dropped by name, not
// the whole device.

/// `GET /.well-known/thread/br-rest` (openapi `WellKnownThread`): the API's version and its entry points by relation.
struct WellKnownThread: Decodable {
    struct API: Decodable {
        let version: String
        let base: String
    }

    struct Link: Decodable {
        let href: String
        let rel: String
    }

    let api: API
    let links: [Link]

    func path(_ relation: String) -> String? { links.first { $0.rel == relation }?.href }
}

/// A JSON:API document whose `data` is one resource or a list of them.
struct JSONAPIDocument<Data: Decodable>: Decodable {
    let data: Data
}

/// A JSON:API resource object (openapi `ActionItem`, a device item, a diagnostic item).
struct JSONAPIResource<Attributes: Decodable>: Decodable {
    struct Relationships: Decodable {
        struct Related: Decodable {
            struct Identifier: Decodable {
                let type: String
                let id: String
            }

            let data: Identifier?
        }

        let result: Related?
    }

    let id: String
    let type: String
    let attributes: Attributes
    let relationships: Relationships?
}

/// An action's attributes as far as the collection needs them: its status (openapi `ActionItem.attributes.status`).
struct ActionAttributes: Decodable {
    enum Status: String, Decodable {
        case pending, active, completed, stopped, failed, undiscovered, attempted
    }

    let status: Status
}

/// A `threadDevice` or `threadBorderRouter` item of `/api/devices`; the border router's own item names its network.
struct DeviceAttributes: Decodable {
    let extAddress: String?
    let extPanId: String?
    let networkName: String?
}

/// The `types` a diagnostic task asks for (openapi `Actions_getNetworkDiagnosticTask`): every TLV matterjs-server's
/// ThreadDiagnosticsNode carries.
let diagnosticTypes = [
    "extAddress", "rloc16", "mode", "timeout", "connectivity", "route", "leaderData", "networkData", "ipv6Addresses",
    "macCounters", "batteryLevel", "supplyVoltage", "childTable", "channelPages", "maxChildTimeout", "eui",
    "threadVersion", "vendorName", "vendorModel", "vendorSwVersion", "threadStackVersion", "mleCounters",
]

/// A `threadNetworkDiagnostic` item's attributes as ot-br-posix writes them (`src/rest/json.cpp`): each member
/// optional, as a device answers only the TLVs it supports; numbers as JSON numbers, addresses as hex text.
struct NetworkDiagnosticAttributes: Decodable {
    struct Mode: Decodable {
        let rxOnWhenIdle: Bool
        let fullThreadDevice: Bool
        let fullNetworkData: Bool
    }

    struct Connectivity: Decodable {
        let parentPriority: Int
        let linkQuality3: Int
        let linkQuality2: Int
        let linkQuality1: Int
        let leaderCost: Int
        let idSequence: Int
        let activeRouters: Int
        let sedBufferSize: Int?
        let sedDatagramCount: Int?
    }

    struct Route: Decodable {
        struct Entry: Decodable {
            // ot-br-posix names the router ID "routeId".
            let routeId: Int
            let linkQualityOut: Int
            let linkQualityIn: Int
            let routeCost: Int
        }

        let idSequence: Int
        let routeData: [Entry]
    }

    struct LeaderData: Decodable {
        let partitionId: UInt32
        let weighting: Int
        let dataVersion: Int
        let stableDataVersion: Int
        let leaderRouterId: Int
    }

    struct MacCounters: Decodable {
        let ifInUnknownProtos: UInt32
        let ifInErrors: UInt32
        let ifOutErrors: UInt32
        let ifInUcastPkts: UInt32
        let ifInBroadcastPkts: UInt32
        let ifInDiscards: UInt32
        let ifOutUcastPkts: UInt32
        let ifOutBroadcastPkts: UInt32
        let ifOutDiscards: UInt32
    }

    struct ChildEntry: Decodable {
        let childId: Int
        let timeout: Int
        let linkQuality: Int
        let mode: Mode
    }

    struct MleCounters: Decodable {
        let radioDisabledCount: Int
        let detachedRoleCount: Int
        let childRoleCount: Int
        let routerRoleCount: Int
        let leaderRoleCount: Int
        let attachAttemptsCount: Int
        let partIdChangesCount: Int
        let betterPartIdAttachAttemptsCount: Int
        let newParentCount: Int
        // Milliseconds (otNetworkDiagMleCounters), written as JSON numbers.
        let totalTrackingTime: Double
        let radioDisabledTime: Double
        let detachedRoleTime: Double
        let childRoleTime: Double
        let routerRoleTime: Double
        let leaderRoleTime: Double
    }

    let extAddress: String?
    let rloc16: String?
    let mode: Mode?
    let timeout: Int?
    let connectivity: Connectivity?
    let route: Route?
    let leaderData: LeaderData?
    let networkData: String?
    let ipv6Addresses: [String]?
    let macCounters: MacCounters?
    let batteryLevel: Int?
    let supplyVoltage: Int?
    let childTable: [ChildEntry]?
    let channelPages: [Int]?
    let maxChildTimeout: Int?
    let eui: String?
    let threadVersion: Int?
    let vendorName: String?
    let vendorModel: String?
    let vendorSwVersion: String?
    let threadStackVersion: String?
    let mleCounters: MleCounters?

    private enum CodingKeys: String, CodingKey {
        case extAddress, rloc16, mode, timeout, connectivity, route, leaderData, networkData, ipv6Addresses
        case macCounters, batteryLevel, supplyVoltage, childTable, channelPages, maxChildTimeout, eui, threadVersion
        case vendorName, vendorModel, vendorSwVersion, threadStackVersion, mleCounters
        // The openapi text's example names the stack version so; the server writes threadStackVersion.
        case stackVersion
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A member of the wrong shape is dropped alone: the rest of the device's answer still counts.
        func field<T: Decodable>(_ key: CodingKeys) -> T? {
            (try? container.decodeIfPresent(T.self, forKey: key)) ?? nil
        }
        extAddress = field(.extAddress)
        rloc16 = field(.rloc16)
        mode = field(.mode)
        timeout = field(.timeout)
        connectivity = field(.connectivity)
        route = field(.route)
        leaderData = field(.leaderData)
        networkData = field(.networkData)
        ipv6Addresses = field(.ipv6Addresses)
        macCounters = field(.macCounters)
        batteryLevel = field(.batteryLevel)
        supplyVoltage = field(.supplyVoltage)
        childTable = field(.childTable)
        channelPages = field(.channelPages)
        maxChildTimeout = field(.maxChildTimeout)
        eui = field(.eui)
        threadVersion = field(.threadVersion)
        vendorName = field(.vendorName)
        vendorModel = field(.vendorModel)
        vendorSwVersion = field(.vendorSwVersion)
        threadStackVersion = field(.threadStackVersion) ?? field(.stackVersion)
        mleCounters = field(.mleCounters)
    }
}
