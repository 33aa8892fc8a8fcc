import Foundation
import HTTPWebSocket
import HomeHub
import MatterPlatform
import Synchronization

/// The Matter-server WebSocket API (python-matter-server's protocol, schema 11; `../shared/protocols/matter-server-ws.md`)
/// that Home Assistant speaks, served by the hub on TCP. **First step**: `GET /info` and `GET /ws` answer; a
/// WebSocket client gets `server_info` as its first frame and can ask for it again; every other command of the
/// protocol is answered with the protocol's error 0 saying it is not built yet, and an unknown one with error 9.
public final class MatterServerAPI: Sendable {
    /// The versions this side speaks (§2 of the facts: a client refuses a server below 11).
    static let schemaVersion = 11
    static let minimumSchemaVersion = 9

    /// The commands of schema 11, so a client learns which are not built yet rather than that they do not exist.
    static let commands: Set<String> = [
        "start_listening", "server_info", "diagnostics", "get_nodes", "get_node", "commission_with_code",
        "commission_on_network", "open_commissioning_window", "discover", "interview_node", "device_command",
        "read_attribute", "write_attribute", "remove_node", "ping_node", "get_node_ip_addresses", "get_vendor_names",
        "import_test_node", "set_default_fabric_label", "set_wifi_credentials", "set_thread_dataset",
        "check_node_update", "update_node", "set_acl_entry", "set_node_binding",
    ]

    private let listeners: [TCPListener]
    private let clients: ClientTable

    /// The connections open now, to close them when the API stops.
    private final class ClientTable: Sendable {
        let connections = Mutex<[ObjectIdentifier: StreamConnection]>([:])
    }

    /// Where it listens (ports the kernel chose for port 0 included).
    public var addresses: [SocketAddress] { listeners.map(\.address) }

    init(fabricID: UInt64, compressedFabricID: UInt64, listeningOn addresses: [SocketAddress]) throws(HomeError) {
        let serverInfo = Self.serverInfo(fabricID: fabricID, compressedFabricID: compressedFabricID)
        let clients = ClientTable()
        self.clients = clients
        var listeners: [TCPListener] = []
        for address in addresses {
            do {
                listeners.append(
                    try TCPListener(address: address) { connection in
                        let client = MatterServerClient(connection: connection, serverInfo: serverInfo)
                        let id = ObjectIdentifier(connection)
                        clients.connections.withLock { $0[id] = connection }
                        connection.start(received: client.received) {
                            _ = clients.connections.withLock { $0.removeValue(forKey: id) }
                        }
                    })
            } catch {
                for listener in listeners { listener.close() }
                throw HomeError(.unavailable, "cannot serve the Matter-server API on \(address): \(error)")
            }
        }
        self.listeners = listeners
    }

    /// Stops listening and closes every client.
    public func stop() {
        for listener in listeners { listener.close() }
        for connection in clients.connections.withLock({ Array($0.values) }) { connection.close() }
    }

    deinit { stop() }

    /// `server_info` as python-matter-server sends it: the compressed fabric ID as a plain 64-bit integer, which Home
    /// Assistant builds its device IDs from.
    static func serverInfo(fabricID: UInt64, compressedFabricID: UInt64) -> String {
        """
        {"fabric_id": \(fabricID), "compressed_fabric_id": \(compressedFabricID), "schema_version": \(schemaVersion), \
        "min_supported_schema_version": \(minimumSchemaVersion), "sdk_version": "swift-home", \
        "wifi_credentials_set": false, "thread_credentials_set": false, "bluetooth_enabled": false}
        """
    }
}

/// One client of the API: its HTTP head until it asks for the WebSocket, then its WebSocket.
private final class MatterServerClient: Sendable {
    private enum Phase {
        case head([UInt8])
        case webSocket(WebSocketConnection)
        case done
    }

    private let connection: StreamConnection
    private let serverInfo: String
    private let phase = Mutex(Phase.head([]))

    init(connection: StreamConnection, serverInfo: String) {
        self.connection = connection
        self.serverInfo = serverInfo
    }

    func received(_ bytes: [UInt8]) {
        let writes: [[UInt8]]
        let close: Bool
        (writes, close) = phase.withLock { phase in take(bytes, &phase) }
        for bytes in writes { connection.send(bytes) }
        if close { connection.closeAfterWrites() }
    }

    private func take(_ bytes: [UInt8], _ phase: inout Phase) -> ([[UInt8]], Bool) {
        switch phase {
        case .done:
            return ([], false)
        case .head(let head):
            let buffered = head + bytes
            switch HTTPRequestHead.parse(buffered) {
            case .incomplete:
                phase = .head(buffered)
                return ([], false)
            case .invalid(let error):
                phase = .done
                return ([error.response.bytes], true)
            case .complete(let request, let length):
                return open(request, rest: Array(buffered[length...]), &phase)
            }
        case .webSocket(var webSocket):
            let actions = webSocket.receive(bytes)
            let result = carryOut(actions, &webSocket)
            phase = webSocket.isClosed ? .done : .webSocket(webSocket)
            return result
        }
    }

    private func open(_ request: HTTPRequestHead, rest: [UInt8], _ phase: inout Phase) -> ([[UInt8]], Bool) {
        guard request.method == "GET" else {
            phase = .done
            return ([HTTPError(405, "only GET is served").response.bytes], true)
        }
        switch request.path {
        case "/info":
            phase = .done
            let response = HTTPResponse(
                status: 200, fields: [HTTPField("Content-Type", "application/json"), HTTPField("Connection", "close")],
                body: Array(serverInfo.utf8))
            return ([response.bytes], true)
        case "/ws":
            do throws(HTTPError) {
                let upgrade = try WebSocketHandshake.accept(request)
                var webSocket = WebSocketConnection()
                // server_info goes first, unprompted; then whatever the client sent behind its request.
                let (writes, close) = carryOut(webSocket.send(text: serverInfo) + webSocket.receive(rest), &webSocket)
                phase = webSocket.isClosed ? .done : .webSocket(webSocket)
                return ([upgrade.bytes] + writes, close)
            } catch {
                phase = .done
                return ([error.handshakeResponse.bytes], true)
            }
        default:
            phase = .done
            return (
                [HTTPError(404, "\(request.path.prefix(64)) is not served: the API is at /ws").response.bytes], true
            )
        }
    }

    private func carryOut(
        _ actions: [WebSocketConnection.Action], _ webSocket: inout WebSocketConnection
    ) -> ([[UInt8]], Bool) {
        var writes: [[UInt8]] = []
        var close = false
        for action in actions {
            switch action {
            case .write(let bytes): writes.append(bytes)
            case .closeConnection: close = true
            case .deliver(.text(let text)):
                writes += Self.writes(of: webSocket.send(text: answer(text)))
            case .deliver(.binary):
                writes += Self.writes(of: webSocket.close(.unsupportedData, reason: "commands are JSON text frames"))
            }
        }
        return (writes, close)
    }

    private static func writes(of actions: [WebSocketConnection.Action]) -> [[UInt8]] {
        actions.compactMap { if case .write(let bytes) = $0 { bytes } else { nil } }
    }

    /// The reply to one command frame (§2: `{"message_id", "command", "args"}`).
    private func answer(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let messageID = object["message_id"] as? String
        else {
            return Self.error(messageID: "", code: 8, "a command is a JSON object with a string message_id")
        }
        guard let command = object["command"] as? String else {
            return Self.error(messageID: messageID, code: 8, "the command is missing")
        }
        if command == "server_info" { return #"{"message_id": \#(Self.quoted(messageID)), "result": \#(serverInfo)}"# }
        guard MatterServerAPI.commands.contains(command) else {
            return Self.error(messageID: messageID, code: 9, "Invalid command: \(command)")
        }
        return Self.error(
            messageID: messageID, code: 0, "\(command) is not built yet in swift-home's Matter-server API")
    }

    private static func error(messageID: String, code: Int, _ details: String) -> String {
        #"{"message_id": \#(quoted(messageID)), "error_code": \#(code), "details": \#(quoted(details))}"#
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

extension Home {
    /// Serves the Matter-server WebSocket API on `addresses` while the returned value lives (or until `stop()`):
    /// `home serve --listen`. Only the hub itself serves it.
    @_spi(HomeCommandLine) public func serveMatterServerAPI(
        listeningOn addresses: [SocketAddress]
    ) throws(HomeError) -> MatterServerAPI {
        let local = try context.embedded("serving the Matter-server API")
        let authority = local.hub.authority
        return try MatterServerAPI(
            fabricID: authority.fabricID,
            compressedFabricID: authority.compressedFabricIDNumber,
            listeningOn: addresses)
    }
}
