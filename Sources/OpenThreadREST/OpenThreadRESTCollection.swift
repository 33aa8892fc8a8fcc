import Foundation
import MatterTime

/// One collection of a Thread network's diagnostics from its border router's REST API (ot-br-posix
/// `src/rest/openapi.yaml`), as a value that answers each event with the next action — send this request, wait until
/// then, finish with this — and does no I/O: `OpenThreadRESTCollector` carries the actions out. One request is in
/// flight at a time (the border router works its queue one task at a time anyway). The steps:
/// 1. `GET /.well-known/thread/br-rest`: the entry points (links by relation: task, device, diagnostic).
/// 2. `GET` the devices: how many the border router knows, the refresh's `deviceCount`.
/// 3. `POST` an `updateDeviceCollectionTask` to the actions and poll it until it ends (skipped when refused as busy).
/// 4. `GET` the devices again: their IDs, and the network (the `threadBorderRouter` item's `extPanId`, `networkName`).
/// 5. `POST` a `getNetworkDiagnosticTask` per device, all in one request.
/// 6. In rounds a poll interval apart: `GET` each task not ended; a completed one's result, the diagnostic its
///    `relationships.result` names, is fetched; a stopped or failed one is a device that did not answer.
/// 7. Finished when every task has ended, or with what it has when the deadline comes (`timeout`).
public struct OpenThreadRESTCollection: Sendable {
    public struct Request: Sendable, Hashable {
        public enum Method: String, Sendable { case get = "GET", post = "POST" }
        public let method: Method
        public let path: String
        public let body: [UInt8]
        /// The Accept field: JSON:API for the API's resources, plain JSON for the well-known entry.
        public let accept: String

        public init(method: Method, path: String, body: [UInt8], accept: String) {
            self.method = method
            self.path = path
            self.body = body
            self.accept = accept
        }

        /// The probe: a border router without the API should cost little time.
        public var isProbe: Bool { path == Self.wellKnownPath }

        static let wellKnownPath = "/.well-known/thread/br-rest"
        static let jsonAPI = "application/vnd.api+json"

        static func get(_ path: String) -> Request {
            Request(method: .get, path: path, body: [], accept: path == wellKnownPath ? "application/json" : jsonAPI)
        }

        static func post(_ path: String, _ body: [UInt8]) -> Request {
            Request(method: .post, path: path, body: body, accept: jsonAPI)
        }
    }

    public enum Action: Sendable, Hashable {
        case send(Request)
        case wait(until: Instant)
        case finish(ThreadNetworkDiagnostics)
    }

    /// The entry points the well-known document names.
    private struct Links: Sendable {
        let actions: String
        let devices: String
        let diagnostics: String
    }

    /// A diagnostic task posted for a device.
    private struct DiagnosticTask: Sendable {
        let action: String
        let device: String
    }

    /// What the diagnostic tasks have gathered so far.
    private struct Gathering: Sendable {
        let links: Links
        var report: ThreadNetworkDiagnostics
        /// The tasks not ended yet.
        var waiting: [DiagnosticTask]
        /// Those still to be asked in this round.
        var round: [DiagnosticTask] = []
        /// Tasks that ended without an answer (stopped, failed, gone).
        var unanswered = 0

        mutating func ended(_ task: DiagnosticTask, answered: Bool) {
            waiting.removeAll { $0.action == task.action }
            if !answered { unanswered += 1 }
        }
    }

    private enum State: Sendable {
        case probing
        case counting(Links)
        case refreshing(Links)
        case refreshWaiting(Links, action: String)
        case refreshPolling(Links, action: String)
        case listing(Links)
        case requesting(Links, ThreadNetworkDiagnostics, devices: [String])
        case polling(Gathering, DiagnosticTask)
        case fetching(Gathering, DiagnosticTask)
        case resting(Gathering)
        case finished
    }

    private var state = State.probing
    /// When the collection ends with what it has.
    public let deadline: Instant

    public init(startedAt: Instant, deadline: Duration = OpenThreadRESTLimits.collection) {
        self.deadline = startedAt + deadline
    }

    /// The first request.
    public func start() -> Action { .send(.get(Request.wellKnownPath)) }

    /// The request in flight was answered with `status` and `body`.
    public mutating func answered(status: Int, body: [UInt8], at now: Instant) -> Action {
        if now >= deadline { return timedOut() }
        switch state {
        case .probing:
            guard status == 200 else {
                return finish(ThreadNetworkDiagnostics(), .absent, "no REST API there (HTTP \(status))")
            }
            guard let known = decode(WellKnownThread.self, body), let actions = known.path("task"),
                let devices = known.path("device"), let diagnostics = known.path("diagnostic"),
                [actions, devices, diagnostics].allSatisfy(Self.isPath)
            else {
                return finish(ThreadNetworkDiagnostics(), .absent, "its well-known document names no diagnostics API")
            }
            let links = Links(actions: actions, devices: devices, diagnostics: diagnostics)
            state = .counting(links)
            return .send(.get(links.devices))

        case .counting(let links):
            guard status == 200, let devices = decode(JSONAPIDocument<[Device]>.self, body) else {
                return protocolError(ThreadNetworkDiagnostics(), "the devices", status)
            }
            state = .refreshing(links)
            return .send(.post(links.actions, Self.refreshBody(deviceCount: max(1, devices.data.count))))

        case .refreshing(let links):
            // Refused for its room (409: more tasks than the actions hold; 503: its queue full): the devices as they
            // are will do.
            if status == 409 || status == 503 {
                state = .listing(links)
                return .send(.get(links.devices))
            }
            guard status == 200, let posted = decode(JSONAPIDocument<[ActionItem]>.self, body),
                let action = posted.data.first, Self.isIdentifier(action.id)
            else {
                return protocolError(ThreadNetworkDiagnostics(), "the refresh of the devices", status)
            }
            state = .refreshWaiting(links, action: action.id)
            return .wait(until: min(now + OpenThreadRESTLimits.pollInterval, deadline))

        case .refreshPolling(let links, let action):
            if status == 200, let polled = decode(JSONAPIDocument<JSONAPIResource<ActionAttributes>>.self, body),
                !polled.data.attributes.status.hasEnded
            {
                state = .refreshWaiting(links, action: action)
                return .wait(until: min(now + OpenThreadRESTLimits.pollInterval, deadline))
            }
            // Ended however it ended (or gone): the devices the border router has now.
            state = .listing(links)
            return .send(.get(links.devices))

        case .listing(let links):
            guard status == 200, let listed = decode(JSONAPIDocument<[Device]>.self, body) else {
                return protocolError(ThreadNetworkDiagnostics(), "the devices", status)
            }
            var report = ThreadNetworkDiagnostics()
            if let own = listed.data.first(where: { $0.type == "threadBorderRouter" }) {
                report.extendedPANID = own.attributes.extPanId.flatMap(ThreadNodeDiagnostics.hex64)
                report.networkName = own.attributes.networkName
            }
            let devices = listed.data.map(\.id).filter { ThreadNodeDiagnostics.hex64($0) != nil }
            guard !devices.isEmpty else { return finish(report, nil, nil) }
            if devices.count > OpenThreadRESTLimits.devices {
                report.problem = "\(devices.count) devices: the first \(OpenThreadRESTLimits.devices) asked"
            }
            let asked = Array(devices.prefix(OpenThreadRESTLimits.devices))
            state = .requesting(links, report, devices: asked)
            return .send(.post(links.actions, Self.diagnosticsBody(devices: asked)))

        case .requesting(let links, let report, let devices):
            guard status == 200, let posted = decode(JSONAPIDocument<[ActionItem]>.self, body),
                posted.data.count == devices.count, posted.data.allSatisfy({ Self.isIdentifier($0.id) })
            else {
                return protocolError(report, "the diagnostic tasks", status)
            }
            let tasks = zip(posted.data, devices).map { DiagnosticTask(action: $0.id, device: $1) }
            return nextRequest(Gathering(links: links, report: report, waiting: tasks, round: tasks), at: now)

        case .polling(var gathering, let task):
            guard status == 200, let polled = decode(JSONAPIDocument<JSONAPIResource<ActionAttributes>>.self, body)
            else {
                // Gone (404) or unreadable: that device's answer is lost, the others' are not.
                gathering.ended(task, answered: false)
                return nextRequest(gathering, at: now)
            }
            switch polled.data.attributes.status {
            case .completed:
                guard let result = polled.data.relationships?.result?.data?.id, Self.isIdentifier(result) else {
                    gathering.ended(task, answered: false)
                    return nextRequest(gathering, at: now)
                }
                state = .fetching(gathering, task)
                return .send(.get(gathering.links.diagnostics + "/" + result))
            case .stopped, .failed:
                gathering.ended(task, answered: false)
                return nextRequest(gathering, at: now)
            case .pending, .active, .undiscovered, .attempted:
                return nextRequest(gathering, at: now)
            }

        case .fetching(var gathering, let task):
            let item = decode(JSONAPIDocument<JSONAPIResource<NetworkDiagnosticAttributes>>.self, body)
            gathering.ended(task, answered: status == 200 && item != nil)
            if status == 200, let item {
                var node = ThreadNodeDiagnostics(item.data.attributes)
                node.extendedAddress = node.extendedAddress ?? ThreadNodeDiagnostics.hex64(task.device)
                gathering.report.nodes.append(node)
            }
            return nextRequest(gathering, at: now)

        case .refreshWaiting, .resting, .finished:
            // Nothing was in flight: an answer out of turn ends the collection rather than confuse it.
            return protocolError(report, "an answer nothing asked for", status)
        }
    }

    /// The request in flight failed: the border router could not be reached, or fell silent.
    public mutating func failed(_ reason: String, at now: Instant) -> Action {
        if now >= deadline { return timedOut() }
        if case .probing = state { return finish(ThreadNetworkDiagnostics(), .unreachable, reason) }
        return finish(report, .unreachable, reason)
    }

    /// The wait asked for has passed; nil when nothing was waiting.
    public mutating func timerFired(at now: Instant) -> Action? {
        switch state {
        case .refreshWaiting(let links, let action):
            if now >= deadline { return timedOut() }
            state = .refreshPolling(links, action: action)
            return .send(.get(links.actions + "/" + action))
        case .resting(var gathering):
            if now >= deadline { return timedOut() }
            gathering.round = gathering.waiting
            return nextRequest(gathering, at: now)
        default:
            return nil
        }
    }

    /// The next task of this round to ask, a rest before the next round, or the end.
    private mutating func nextRequest(_ gathering: Gathering, at now: Instant) -> Action {
        var gathering = gathering
        guard !gathering.waiting.isEmpty else {
            return finish(
                gathering.report, gathering.unanswered > 0 ? .timeout : nil,
                gathering.unanswered > 0 ? "devices that did not answer their task: \(gathering.unanswered)" : nil)
        }
        if now >= deadline { return timedOut() }
        guard !gathering.round.isEmpty else {
            state = .resting(gathering)
            return .wait(until: min(now + OpenThreadRESTLimits.pollInterval, deadline))
        }
        let task = gathering.round.removeFirst()
        state = .polling(gathering, task)
        return .send(.get(gathering.links.actions + "/" + task.action))
    }

    /// What has been gathered so far, whatever the state.
    private var report: ThreadNetworkDiagnostics {
        switch state {
        case .requesting(_, let report, _): report
        case .polling(let gathering, _), .fetching(let gathering, _), .resting(let gathering): gathering.report
        default: ThreadNetworkDiagnostics()
        }
    }

    private mutating func timedOut() -> Action {
        finish(report, .timeout, "the collection's deadline came")
    }

    private mutating func protocolError(
        _ report: ThreadNetworkDiagnostics, _ what: String, _ status: Int
    ) -> Action {
        finish(report, .protocolError, "\(what): HTTP \(status), not as the API defines it")
    }

    private mutating func finish(
        _ report: ThreadNetworkDiagnostics, _ shortfall: ThreadNetworkDiagnostics.Shortfall?, _ problem: String?
    ) -> Action {
        state = .finished
        var report = report
        report.shortfall = shortfall
        if let problem { report.problem = [report.problem, problem].compactMap { $0 }.joined(separator: "; ") }
        return .finish(report)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(body))
    }

    /// An ID the server gave, safe to put in a path: JSON:API IDs here are UUIDs and hex.
    private static func isIdentifier(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45
            }
    }

    /// A link the well-known document gave: an absolute path on the same server, nothing else.
    private static func isPath(_ text: String) -> Bool {
        text.hasPrefix("/") && !text.hasPrefix("//")
            && text.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
    }

    private typealias Device = JSONAPIResource<DeviceAttributes>
    private typealias ActionItem = JSONAPIResource<ActionAttributes>

    private static func refreshBody(deviceCount: Int) -> [UInt8] {
        encode([
            TaskItem(
                type: "updateDeviceCollectionTask",
                attributes: .refresh(
                    maxAge: OpenThreadRESTLimits.updateMaxAgeSeconds, maxRetries: OpenThreadRESTLimits.updateRetries,
                    deviceCount: deviceCount, timeout: OpenThreadRESTLimits.updateTimeoutSeconds))
        ])
    }

    private static func diagnosticsBody(devices: [String]) -> [UInt8] {
        encode(
            devices.map {
                TaskItem(
                    type: "getNetworkDiagnosticTask",
                    attributes: .diagnostics(
                        destination: $0, types: diagnosticTypes, timeout: OpenThreadRESTLimits.taskTimeoutSeconds))
            })
    }

    private static func encode(_ items: [TaskItem]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array((try? encoder.encode(["data": items])) ?? Data())
    }
}

extension ActionAttributes.Status {
    var hasEnded: Bool {
        switch self {
        case .completed, .stopped, .failed: true
        case .pending, .active, .undiscovered, .attempted: false
        }
    }
}

/// A task posted to the actions (openapi `ActionsClientItem`).
private struct TaskItem: Encodable {
    enum Attributes: Encodable {
        case refresh(maxAge: Int, maxRetries: Int, deviceCount: Int, timeout: Int)
        case diagnostics(destination: String, types: [String], timeout: Int)

        private enum Keys: String, CodingKey {
            case maxAge, maxRetries, deviceCount, timeout, destination, types
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            switch self {
            case .refresh(let maxAge, let maxRetries, let deviceCount, let timeout):
                try container.encode(maxAge, forKey: .maxAge)
                try container.encode(maxRetries, forKey: .maxRetries)
                try container.encode(deviceCount, forKey: .deviceCount)
                try container.encode(timeout, forKey: .timeout)
            case .diagnostics(let destination, let types, let timeout):
                try container.encode(destination, forKey: .destination)
                try container.encode(types, forKey: .types)
                try container.encode(timeout, forKey: .timeout)
            }
        }
    }

    let type: String
    let attributes: Attributes
}
