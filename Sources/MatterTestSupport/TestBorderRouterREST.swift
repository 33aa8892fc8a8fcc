import Foundation
import Synchronization

/// A Thread border router's REST API on loopback, answering as ot-br-posix's `src/rest/openapi.yaml` (API 0.5) and
/// its server (`rest_web_server.cpp`) do: the well-known entry, `/api/devices` (the border router's own item and a
/// `threadDevice` per device), `/api/actions` (POST only as `application/vnd.api+json`, each task validated, 422 for
/// one without its required attributes; tasks go pending → active → completed or stopped as they are polled), and
/// `/api/diagnostics/{id}`. An Accept other than JSON:API, JSON or `*/*` is 406, as the server's exact comparison
/// makes it. A device listed with `answers: false` lets its diagnostic task time out (stopped).
public final class TestBorderRouterREST: Sendable {
    public struct Device: Sendable {
        public let extendedAddress: String
        public let answers: Bool
        /// The diagnostic's attributes as the server writes them: a JSON object's text.
        public let diagnostic: String

        public init(extendedAddress: String, answers: Bool = true, diagnostic: String) {
            self.extendedAddress = extendedAddress
            self.answers = answers
            self.diagnostic = diagnostic
        }
    }

    private struct Task: Sendable {
        let type: String
        let destination: String?
        var polls = 0
    }

    private struct State: Sendable {
        var tasks: [String: Task] = [:]
        var order: [String] = []
        var posted: [[UInt8]] = []
        var next = 0
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let server: TestHTTPServer
    private let shared = Shared()

    public var base: String { server.base }
    /// The bodies of the POSTs to the actions that were taken, in order.
    public var posted: [[UInt8]] { shared.state.withLock { $0.posted } }

    /// `extendedPANID`: 16 hex digits; the first device is the border router itself.
    public init(extendedPANID: String, networkName: String, devices: [Device], actionsLimit: Int = 200) throws {
        let shared = shared
        server = try TestHTTPServer { request in
            Self.answer(request, shared, extendedPANID, networkName, devices, actionsLimit)
        }
    }

    private static func answer(
        _ request: TestHTTPServer.Request, _ shared: Shared, _ extendedPANID: String, _ networkName: String,
        _ devices: [Device], _ actionsLimit: Int
    ) -> [UInt8] {
        let accept = request.fields["accept"] ?? "*/*"
        guard ["*/*", "application/json", "application/vnd.api+json"].contains(accept) else {
            return json(406, ["errors": [["status": "406"]]])
        }
        let parts = request.path.split(separator: "/").map(String.init)
        let id = parts.count == 3 ? parts[2] : ""
        switch (request.method, parts.count == 3 ? Array(parts[..<2]) : parts) {
        case ("GET", [".well-known", "thread"]) where id == "br-rest":
            return json(
                200,
                [
                    "api": ["version": "0.5.0", "base": "/api/"],
                    "links": [
                        ["href": "/.well-known/thread/br-rest", "rel": "self"],
                        ["href": "/api/actions", "rel": "task"], ["href": "/api/devices", "rel": "device"],
                        ["href": "/api/diagnostics", "rel": "diagnostic"],
                    ],
                ])
        case ("GET", ["api", "devices"]) where id.isEmpty:
            let items: [[String: Any]] = devices.enumerated().map { index, device in
                var attributes: [String: Any] = [
                    "extAddress": device.extendedAddress, "role": index == 0 ? "leader" : "child",
                ]
                if index == 0 { attributes.merge(["extPanId": extendedPANID, "networkName": networkName]) { $1 } }
                return [
                    "id": device.extendedAddress, "type": index == 0 ? "threadBorderRouter" : "threadDevice",
                    "attributes": attributes,
                ]
            }
            return json(200, ["meta": ["collection": ["offset": 0, "total": items.count]], "data": items])
        case ("POST", ["api", "actions"]) where id.isEmpty:
            guard request.fields["content-type"] == "application/vnd.api+json" else { return json(415, [:]) }
            guard let document = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                let data = document["data"] as? [[String: Any]]
            else { return json(400, [:]) }
            var tasks: [Task] = []
            for item in data {
                guard let type = item["type"] as? String, let attributes = item["attributes"] as? [String: Any],
                    valid(type, attributes, devices)
                else { return json(422, [:]) }
                tasks.append(Task(type: type, destination: attributes["destination"] as? String))
            }
            let created = shared.state.withLock { state -> [(String, Task)]? in
                guard state.tasks.count + tasks.count <= actionsLimit else { return nil }
                state.posted.append(request.body)
                return tasks.map { task in
                    state.next += 1
                    let id = String(format: "00000000-0000-4000-8000-%012d", state.next)
                    state.tasks[id] = task
                    state.order.append(id)
                    return (id, task)
                }
            }
            guard let created else { return json(503, [:]) }
            return json(
                200,
                ["data": created.map { ["id": $0.0, "type": $0.1.type, "attributes": ["status": "pending"]] }])
        case ("GET", ["api", "actions"]) where !id.isEmpty:
            // Each poll moves the task on: pending, then active, then ended.
            guard
                let task = shared.state.withLock({ state -> Task? in
                    state.tasks[id]?.polls += 1
                    return state.tasks[id]
                })
            else { return json(404, [:]) }
            let device = devices.first { $0.extendedAddress == task.destination }
            let status =
                switch task.polls {
                case 1: "pending"
                case 2: "active"
                default: task.type == "getNetworkDiagnosticTask" && device?.answers != true ? "stopped" : "completed"
                }
            var item: [String: Any] = ["id": id, "type": task.type, "attributes": ["status": status]]
            if status == "completed", task.type == "getNetworkDiagnosticTask" {
                item["relationships"] = ["result": ["data": ["type": "diagnostics", "id": "d-" + id]]]
            }
            return json(200, ["data": item])
        case ("GET", ["api", "diagnostics"]) where !id.isEmpty:
            let task = shared.state.withLock { $0.tasks[String(id.dropFirst(2))] }
            guard id.hasPrefix("d-"), let task,
                let device = devices.first(where: { $0.extendedAddress == task.destination })
            else { return json(404, [:]) }
            var attributes =
                (try? JSONSerialization.jsonObject(with: Data(device.diagnostic.utf8)) as? [String: Any]) ?? [:]
            attributes["created"] = "2026-12-07T19:00:00Z"
            return json(200, ["data": ["id": id, "type": "threadNetworkDiagnostic", "attributes": attributes]])
        default:
            return json(404, [:])
        }
    }

    /// The openapi text's required attributes per task type.
    private static func valid(_ type: String, _ attributes: [String: Any], _ devices: [Device]) -> Bool {
        switch type {
        case "getNetworkDiagnosticTask":
            guard let destination = attributes["destination"] as? String,
                let types = attributes["types"] as? [String], !types.isEmpty
            else { return false }
            return devices.contains { $0.extendedAddress == destination }
        case "updateDeviceCollectionTask":
            return ["maxAge", "maxRetries", "deviceCount", "timeout"].allSatisfy { attributes[$0] is Int }
        default:
            return false
        }
    }

    private static func json(_ status: Int, _ value: [String: Any]) -> [UInt8] {
        let body = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map(Array.init) ?? []
        return TestHTTPServer.answer(status, body, fields: ["Content-Type: application/vnd.api+json"])
    }
}
