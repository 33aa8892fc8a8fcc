import HomeHub
import HubWire
import MatterNode

// The arguments of the Matter-server API's commands (`../shared/protocols/matter-server-ws.md`), one type per shape,
// named as the schema names them. An argument missing or not of its type is error 8 naming it, before the command
// runs (`MatterServerClient.Command`); unknown keys are ignored, as python-matter-server ignores them.

/// A command that takes nothing (or nothing this hub reads).
struct NoArguments: Decodable, Sendable {}

/// A command about one node.
struct NodeArguments: Decodable, Sendable {
    let nodeID: UInt64

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
    }
}

/// `update_node`: the version to install, as a number or as the version string `check_node_update` gave.
struct UpdateNodeArguments: Decodable, Sendable {
    enum Version: Sendable {
        case number(UInt32)
        case text(String)
    }

    let nodeID: UInt64
    let softwareVersion: Version

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case softwareVersion = "software_version"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nodeID = try container.decode(UInt64.self, forKey: .nodeID)
        if let number = try? container.decode(UInt32.self, forKey: .softwareVersion) {
            softwareVersion = .number(number)
        } else {
            softwareVersion = .text(try container.decode(String.self, forKey: .softwareVersion))
        }
    }
}

struct GetNodesArguments: Decodable, Sendable {
    let onlyAvailable: Bool?

    private enum CodingKeys: String, CodingKey {
        case onlyAvailable = "only_available"
    }
}

struct FabricLabelArguments: Decodable, Sendable {
    /// Present, as text or null (python-matter-server's `label: str | None`).
    let label: String?

    private enum CodingKeys: String, CodingKey {
        case label
    }

    init(from decoder: any Decoder) throws {
        label = try decoder.container(keyedBy: CodingKeys.self).decode(String?.self, forKey: .label)
    }
}

/// `set_loglevel` (matterjs-server's): either level may be left out.
struct LogLevelArguments: Decodable, Sendable {
    let console: String?
    let file: String?

    private enum CodingKeys: String, CodingKey {
        case console = "console_loglevel"
        case file = "file_loglevel"
    }
}

struct VendorNamesArguments: Decodable, Sendable {
    let filterVendors: [UInt64]?

    private enum CodingKeys: String, CodingKey {
        case filterVendors = "filter_vendors"
    }
}

struct ImportTestNodeArguments: Decodable, Sendable {
    let dump: String
}

struct DeviceCommandArguments: Decodable, Sendable {
    let nodeID: UInt64
    let endpointID: UInt16
    let clusterID: UInt32
    let commandName: String
    /// The command's fields by name; none when absent or null.
    let payload: [String: UntypedJSON]?
    /// 1 to 65535 when given.
    let timedRequestTimeoutMilliseconds: UInt16?

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case endpointID = "endpoint_id"
        case clusterID = "cluster_id"
        case commandName = "command_name"
        case payload
        case timedRequestTimeoutMilliseconds = "timed_request_timeout_ms"
    }
}

struct WriteAttributeArguments: Decodable, Sendable {
    let nodeID: UInt64
    /// `endpoint/cluster/attribute`, three numbers.
    let attributePath: String
    /// Present; null is a value.
    let value: UntypedJSON

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case attributePath = "attribute_path"
        case value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nodeID = try container.decode(UInt64.self, forKey: .nodeID)
        attributePath = try container.decode(String.self, forKey: .attributePath)
        // A null value is decoded as one, not taken for a missing key.
        guard container.contains(.value) else {
            throw DecodingError.keyNotFound(
                CodingKeys.value, .init(codingPath: [], debugDescription: "value is missing"))
        }
        value = try container.decodeNil(forKey: .value) ? .null : container.decode(UntypedJSON.self, forKey: .value)
    }
}

struct ReadAttributeArguments: Decodable, Sendable {
    let nodeID: UInt64
    /// One path or a list of them, each `endpoint/cluster/attribute` with `*` for any.
    let attributePaths: [String]

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case attributePath = "attribute_path"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nodeID = try container.decode(UInt64.self, forKey: .nodeID)
        if let one = try? container.decode(String.self, forKey: .attributePath) {
            attributePaths = [one]
        } else {
            attributePaths = try container.decode([String].self, forKey: .attributePath)
        }
    }
}

struct SetACLEntryArguments: Decodable, Sendable {
    let nodeID: UInt64
    /// AccessControlEntryStruct values, as attribute values are written.
    let entry: [UntypedJSON]

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case entry
    }
}

struct SetNodeBindingArguments: Decodable, Sendable {
    let nodeID: UInt64
    let endpoint: UInt16
    /// TargetStruct values, as attribute values are written.
    let bindings: [UntypedJSON]

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case endpoint, bindings
    }
}

struct CommissionWithCodeArguments: Decodable, Sendable {
    let code: String
    let networkOnly: Bool?
    /// Schema 12: the stored Wi-Fi network and Thread dataset to give the device, by ID.
    let wifiCredentialsID: String?
    let threadDatasetID: String?

    private enum CodingKeys: String, CodingKey {
        case code
        case networkOnly = "network_only"
        case wifiCredentialsID = "wifi_credentials_id"
        case threadDatasetID = "thread_dataset_id"
    }
}

/// `remove_wifi_credentials`, `remove_thread_dataset` (schema 12): the entry's ID; none: the "default" entry.
struct CredentialsIDArguments: Decodable, Sendable {
    let id: String?
}

struct CommissionOnNetworkArguments: Decodable, Sendable {
    let setupPinCode: UInt32
    /// 0: none, 1: short discriminator, 2: long discriminator (others are not built).
    let filterType: UInt64?
    let filter: UInt64?
    let ipAddress: String?

    private enum CodingKeys: String, CodingKey {
        case setupPinCode = "setup_pin_code"
        case filterType = "filter_type"
        case filter
        case ipAddress = "ip_addr"
    }
}

struct OpenCommissioningWindowArguments: Decodable, Sendable {
    let nodeID: UInt64
    /// Seconds; 300 when absent.
    let timeout: UInt64?
    let option: UInt64?
    let discriminator: UInt16?
    let iteration: UInt64?

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case timeout, option, discriminator, iteration
    }
}

extension MatterServerError {
    /// Error 8 naming the argument a command's arguments failed to decode at.
    init(decoding error: any Error) {
        let argument: String? =
            switch error as? DecodingError {
            case .keyNotFound(let key, _)?: key.stringValue
            case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
                context.codingPath.first?.stringValue
            default: nil
            }
        self = argument.map(Self.missing) ?? Self(.invalidArguments, "the arguments do not decode: \(error)")
    }
}

struct WiFiCredentialsArguments: Decodable, Sendable {
    let ssid: String
    /// Empty: keep the passphrase stored under the ID for the same SSID (schema 12's rule).
    let credentials: String
    /// Schema 12: the entry's ID; none: "default".
    let id: String?
}

struct ThreadDatasetArguments: Decodable, Sendable {
    /// The operational dataset as hex (python-matter-server's `dataset: str`).
    let dataset: String
    let id: String?

    /// The dataset's bytes; nil when it is not hex.
    var bytes: [UInt8]? { ThreadOperationalDataset.bytes(hex: dataset) }
}
