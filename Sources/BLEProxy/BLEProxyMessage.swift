import Foundation

// The BLE proxy protocol, version 1 (matterjs-server's docs/ble-proxy-protocol.md): JSON control messages in text
// frames — the hello handshake, the server's commands, the client's responses and events — and characteristic data
// in binary frames.

/// What one side sends the other over the `/ble` WebSocket.
public enum BLEProxyFrame: Sendable, Hashable {
    case text(String)
    case binary([UInt8])
}

/// The protocol's version and the names its messages use.
public enum BLEProxyProtocol {
    public static let version = 1
}

/// A binary frame ("Binary Frames"): an opcode, the big-endian connection handle, then the characteristic's bytes.
public struct BLEProxyBinaryFrame: Sendable, Hashable {
    public enum Opcode: UInt8, Sendable {
        /// Server to client: write the payload to the characteristic the last write named (C1), with response.
        case writeData = 0x01
        /// Client to server: a notification or indication of the subscribed characteristic (C2).
        case notification = 0x02
        /// Client to server: the answer to the last `read_characteristic`.
        case readResponse = 0x03
    }

    public var opcode: Opcode
    public var connectionHandle: UInt16
    public var payload: [UInt8]

    public init(_ opcode: Opcode, connectionHandle: UInt16, payload: [UInt8]) {
        self.opcode = opcode
        self.connectionHandle = connectionHandle
        self.payload = payload
    }

    /// Reads a frame; nil when it is shorter than 3 bytes or its opcode is unknown.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 3, let opcode = Opcode(rawValue: bytes[0]) else { return nil }
        self.init(opcode, connectionHandle: UInt16(bytes[1]) << 8 | UInt16(bytes[2]), payload: Array(bytes[3...]))
    }

    public var bytes: [UInt8] {
        [opcode.rawValue, UInt8(connectionHandle >> 8), UInt8(connectionHandle & 0xFF)] + payload
    }
}

/// `hello` and `hello_response` ("Handshake").
public struct BLEProxyHello: Codable, Sendable, Hashable {
    public var type: String
    public var version: Int
    public var error: String?
    public var message: String?
}

/// A command from the server ("Commands"): its name and arguments. Unknown names are read as `.other`, to be
/// answered with an error.
public enum BLEProxyCommand: Sendable, Hashable {
    case startScan(serviceUUIDs: [String], allowDuplicates: Bool)
    case stopScan
    case connect(address: String, timeoutMilliseconds: Int?)
    case disconnect(handle: Int)
    case discoverServices(handle: Int)
    case discoverCharacteristics(handle: Int, serviceUUID: String)
    case readCharacteristic(handle: Int, uuid: String)
    case writeCharacteristic(handle: Int, uuid: String, value: [UInt8], withResponse: Bool)
    case subscribeCharacteristic(handle: Int, uuid: String)
    case writeAndSubscribe(handle: Int, writeUUID: String, value: [UInt8], withResponse: Bool, subscribeUUID: String)
    case unsubscribeCharacteristic(handle: Int, uuid: String)
    case requestMTU(handle: Int, mtu: Int)
    case other(String)

    /// The wire's fields of a command message's `args`, every one optional.
    struct Arguments: Codable, Hashable {
        var serviceUuids: [String]?
        var allowDuplicates: Bool?
        var address: String?
        var timeout: Int?
        var connectionHandle: Int?
        var serviceUuid: String?
        var characteristicUuid: String?
        var value: String?
        var response: Bool?
        var writeUuid: String?
        var writeValue: String?
        var writeResponse: Bool?
        var subscribeUuid: String?
        var mtu: Int?
    }

    struct Message: Codable {
        var id: Int
        var command: String
        var args: Arguments?
    }

    /// The command as the wire names it, with its arguments.
    var wire: (String, Arguments?) {
        switch self {
        case .startScan(let uuids, let duplicates):
            ("start_scan", Arguments(serviceUuids: uuids, allowDuplicates: duplicates))
        case .stopScan: ("stop_scan", nil)
        case .connect(let address, let timeout): ("connect", Arguments(address: address, timeout: timeout))
        case .disconnect(let handle): ("disconnect", Arguments(connectionHandle: handle))
        case .discoverServices(let handle): ("discover_services", Arguments(connectionHandle: handle))
        case .discoverCharacteristics(let handle, let service):
            ("discover_characteristics", Arguments(connectionHandle: handle, serviceUuid: service))
        case .readCharacteristic(let handle, let uuid):
            ("read_characteristic", Arguments(connectionHandle: handle, characteristicUuid: uuid))
        case .writeCharacteristic(let handle, let uuid, let value, let withResponse):
            (
                "write_characteristic",
                Arguments(
                    connectionHandle: handle, characteristicUuid: uuid, value: Data(value).base64EncodedString(),
                    response: withResponse)
            )
        case .subscribeCharacteristic(let handle, let uuid):
            ("subscribe_characteristic", Arguments(connectionHandle: handle, characteristicUuid: uuid))
        case .writeAndSubscribe(let handle, let write, let value, let withResponse, let subscribe):
            (
                "write_and_subscribe",
                Arguments(
                    connectionHandle: handle, writeUuid: write, writeValue: Data(value).base64EncodedString(),
                    writeResponse: withResponse, subscribeUuid: subscribe)
            )
        case .unsubscribeCharacteristic(let handle, let uuid):
            ("unsubscribe_characteristic", Arguments(connectionHandle: handle, characteristicUuid: uuid))
        case .requestMTU(let handle, let mtu): ("request_mtu", Arguments(connectionHandle: handle, mtu: mtu))
        case .other(let name): (name, nil)
        }
    }

    /// The command's text frame, numbered `id`.
    public func encoded(id: Int) -> String {
        let (name, args) = wire
        return BLEProxyJSON.encode(Message(id: id, command: name, args: args))
    }

    /// Reads a command message: its id and the command; nil when it is no command (no id, no name) or an argument
    /// it needs is missing or malformed.
    public static func decode(_ text: String) -> (id: Int, command: BLEProxyCommand)? {
        guard let message = BLEProxyJSON.decode(Message.self, text) else { return nil }
        let args = message.args ?? Arguments()
        let handle = args.connectionHandle
        let base64 = { (text: String?) in text.flatMap { Data(base64Encoded: $0) }.map { Array($0) } }
        let command: BLEProxyCommand? =
            switch message.command {
            case "start_scan":
                .startScan(serviceUUIDs: args.serviceUuids ?? [], allowDuplicates: args.allowDuplicates ?? true)
            case "stop_scan": .stopScan
            case "connect": args.address.map { .connect(address: $0, timeoutMilliseconds: args.timeout) }
            case "disconnect": handle.map { .disconnect(handle: $0) }
            case "discover_services": handle.map { .discoverServices(handle: $0) }
            case "discover_characteristics":
                handle.flatMap { handle in
                    args.serviceUuid.map { .discoverCharacteristics(handle: handle, serviceUUID: $0) }
                }
            case "read_characteristic":
                handle.flatMap { handle in args.characteristicUuid.map { .readCharacteristic(handle: handle, uuid: $0) }
                }
            case "write_characteristic":
                handle.flatMap { handle in
                    args.characteristicUuid.flatMap { uuid in
                        base64(args.value).map {
                            .writeCharacteristic(
                                handle: handle, uuid: uuid, value: $0, withResponse: args.response ?? false)
                        }
                    }
                }
            case "subscribe_characteristic":
                handle.flatMap { handle in
                    args.characteristicUuid.map { .subscribeCharacteristic(handle: handle, uuid: $0) }
                }
            case "write_and_subscribe":
                handle.flatMap { handle in
                    args.writeUuid.flatMap { write in
                        args.subscribeUuid.flatMap { subscribe in
                            base64(args.writeValue).map {
                                .writeAndSubscribe(
                                    handle: handle, writeUUID: write, value: $0,
                                    withResponse: args.writeResponse ?? false, subscribeUUID: subscribe)
                            }
                        }
                    }
                }
            case "unsubscribe_characteristic":
                handle.flatMap { handle in
                    args.characteristicUuid.map { .unsubscribeCharacteristic(handle: handle, uuid: $0) }
                }
            case "request_mtu": handle.flatMap { handle in args.mtu.map { .requestMTU(handle: handle, mtu: $0) } }
            default: .other(message.command)
            }
        return command.map { (message.id, $0) }
    }
}

/// A response's `result` fields, and an event's `data` fields, every one optional ("Commands" and "Events").
public struct BLEProxyFields: Codable, Sendable, Hashable {
    public struct Service: Codable, Sendable, Hashable {
        public var uuid: String
        public init(uuid: String) { self.uuid = uuid }
    }

    public struct Characteristic: Codable, Sendable, Hashable {
        public var uuid: String
        public var properties: [String]
        public init(uuid: String, properties: [String]) {
            self.uuid = uuid
            self.properties = properties
        }
    }

    public var connectionHandle: Int?
    public var mtu: Int?
    public var services: [Service]?
    public var characteristics: [Characteristic]?
    public var value: String?
    // device_discovered
    public var address: String?
    public var name: String?
    public var rssi: Int?
    public var connectable: Bool?
    public var serviceData: [String: String]?
    public var serviceUuids: [String]?
    // disconnected, scan_stopped, characteristic_notification
    public var reason: String?
    public var characteristicUuid: String?

    public init(
        connectionHandle: Int? = nil, mtu: Int? = nil, services: [Service]? = nil,
        characteristics: [Characteristic]? = nil, value: String? = nil, address: String? = nil, name: String? = nil,
        rssi: Int? = nil, connectable: Bool? = nil, serviceData: [String: String]? = nil,
        serviceUuids: [String]? = nil, reason: String? = nil, characteristicUuid: String? = nil
    ) {
        self.connectionHandle = connectionHandle
        self.mtu = mtu
        self.services = services
        self.characteristics = characteristics
        self.value = value
        self.address = address
        self.name = name
        self.rssi = rssi
        self.connectable = connectable
        self.serviceData = serviceData
        self.serviceUuids = serviceUuids
        self.reason = reason
        self.characteristicUuid = characteristicUuid
    }
}

/// What a client sends in a text frame: a hello, a response to a command, or an event.
public enum BLEProxyClientMessage: Sendable, Hashable {
    case hello(version: Int)
    case response(id: Int, Result<BLEProxyFields, BLEProxyFailure>)
    case event(name: String, data: BLEProxyFields)

    struct Wire: Codable {
        var type: String?
        var version: Int?
        var id: Int?
        var success: Bool?
        var result: BLEProxyFields?
        var error: String?
        var message: String?
        var event: String?
        var data: BLEProxyFields?
    }

    public static func decode(_ text: String) -> BLEProxyClientMessage? {
        guard let wire = BLEProxyJSON.decode(Wire.self, text) else { return nil }
        if wire.type == "hello", let version = wire.version { return .hello(version: version) }
        if let id = wire.id, let success = wire.success {
            return .response(
                id: id,
                success
                    ? .success(wire.result ?? BLEProxyFields())
                    : .failure(BLEProxyFailure(code: wire.error ?? "internal_error", message: wire.message ?? "")))
        }
        if let event = wire.event { return .event(name: event, data: wire.data ?? BLEProxyFields()) }
        return nil
    }

    public var encoded: String {
        switch self {
        case .hello(let version): return BLEProxyJSON.encode(Wire(type: "hello", version: version))
        case .response(let id, .success(let result)):
            return BLEProxyJSON.encode(Wire(id: id, success: true, result: result))
        case .response(let id, .failure(let failure)):
            return BLEProxyJSON.encode(Wire(id: id, success: false, error: failure.code, message: failure.message))
        case .event(let name, let data): return BLEProxyJSON.encode(Wire(event: name, data: data))
        }
    }
}

/// A command's failure as the client reports it: the machine-readable code ("Error Codes Reference") and its words.
public struct BLEProxyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message.isEmpty ? code : "\(code): \(message)" }
}

/// The protocol's JSON: snake_case keys, fields that are nil left out.
enum BLEProxyJSON {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        // Every type here encodes: its fields are strings, numbers, booleans and arrays of them.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(type, from: Data(text.utf8))
    }
}
