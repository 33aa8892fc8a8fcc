import Foundation
import HTTPClient
import MatterTime
import Synchronization

/// Runs an `OpenThreadRESTCollection` against a border router: its requests over HTTP (`HTTPClient`), its waits on
/// `clock`. Never throws: what went wrong is in the answer (`shortfall`, `problem`).
public enum OpenThreadRESTCollector {
    /// One request's outcome: the status and body, or why there was none.
    public typealias Exchange =
        @Sendable (_ base: String, _ request: OpenThreadRESTCollection.Request) async -> Result<
            (status: Int, body: [UInt8]), HTTPClientError
        >

    /// Collects the diagnostics of the network whose border router serves the REST API at `base`
    /// (`http://HOST:8081`).
    public static func collect(
        from base: String, clock: any DriverClock, exchange: @escaping Exchange = OpenThreadRESTCollector.http
    ) async -> ThreadNetworkDiagnostics {
        var collection = OpenThreadRESTCollection(startedAt: clock.now)
        let deadline = collection.deadline
        var action = collection.start()
        while true {
            switch action {
            case .finish(let report):
                return report
            case .send(let request):
                // Raced against the deadline: a border router that trickles its answer cannot hold the collection
                // past it (the request's own thread ends within its silence, its answer unread).
                switch await answerOrDeadline(exchange, base, request, clock: clock, deadline: deadline) {
                case .some(.success(let answer)):
                    action = collection.answered(status: answer.status, body: answer.body, at: clock.now)
                case .some(.failure(let error)):
                    action = collection.failed(error.reason, at: clock.now)
                case nil:
                    action = collection.failed("the collection's deadline came", at: clock.now)
                }
            case .wait(let until):
                do {
                    try await clock.sleep(until: until)
                } catch {
                    action = collection.failed("cancelled", at: clock.now)
                    continue
                }
                action =
                    collection.timerFired(at: clock.now) ?? collection.failed("nothing was waited for", at: clock.now)
            }
        }
    }

    /// The exchange's outcome, or nil when the deadline comes first.
    private static func answerOrDeadline(
        _ exchange: @escaping Exchange, _ base: String, _ request: OpenThreadRESTCollection.Request,
        clock: any DriverClock, deadline: Instant
    ) async -> Result<(status: Int, body: [UInt8]), HTTPClientError>? {
        let first = FirstOutcome()
        return await withCheckedContinuation { continuation in
            // Held before either can finish: both are started here, after it.
            first.hold(continuation)
            let sleeper = Task {
                try? await clock.sleep(until: deadline)
                first.resume(nil)
            }
            Task {
                first.resume(await exchange(base, request))
                sleeper.cancel()
            }
        }
    }

    /// Resumes its continuation with the first outcome given; later ones are dropped.
    private final class FirstOutcome: Sendable {
        typealias Outcome = Result<(status: Int, body: [UInt8]), HTTPClientError>?
        private let continuation = Mutex<CheckedContinuation<Outcome, Never>?>(nil)

        func hold(_ continuation: CheckedContinuation<Outcome, Never>) {
            self.continuation.withLock { $0 = continuation }
        }

        func resume(_ outcome: Outcome) {
            continuation.withLock { held in
                defer { held = nil }
                return held
            }?.resume(returning: outcome)
        }
    }

    /// A REST API's location as a person names it (`http://otbr.local:8081`): http or https, a host, a port, and no
    /// path, query or credentials; nil when it is not that. Given back without a trailing slash.
    public static func base(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: false), !host.isEmpty, url.user == nil, url.query == nil,
            url.fragment == nil, url.path(percentEncoded: true).isEmpty || url.path(percentEncoded: true) == "/"
        else { return nil }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The requests over HTTP, each bounded in time (the probe more tightly) and in size.
    public static let http: Exchange = { base, request in
        let url = base + request.path
        let silence = request.isProbe ? OpenThreadRESTLimits.probeSilence : OpenThreadRESTLimits.requestSilence
        do throws(HTTPClientError) {
            let response =
                switch request.method {
                case .get:
                    // Not redirected: a border router found by DNS-SD (no one vouches for it) may not send the hub on
                    // to another host.
                    try await HTTPClient.get(
                        url, limit: OpenThreadRESTLimits.bodyLimit, accept: request.accept, followingRedirects: false,
                        silence: silence)
                case .post:
                    try await HTTPClient.post(
                        url, body: request.body, contentType: "application/vnd.api+json",
                        limit: OpenThreadRESTLimits.bodyLimit, accept: request.accept, silence: silence)
                }
            return .success((response.status, response.body))
        } catch {
            return .failure(error)
        }
    }
}
