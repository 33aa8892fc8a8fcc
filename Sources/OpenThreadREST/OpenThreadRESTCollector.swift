import Foundation
import HTTPClient
import MatterTime

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
        from base: String, clock: any DriverClock, exchange: Exchange = OpenThreadRESTCollector.http
    ) async -> ThreadNetworkDiagnostics {
        var collection = OpenThreadRESTCollection(startedAt: clock.now)
        var action = collection.start()
        while true {
            switch action {
            case .finish(let report):
                return report
            case .send(let request):
                switch await exchange(base, request) {
                case .success(let answer):
                    action = collection.answered(status: answer.status, body: answer.body, at: clock.now)
                case .failure(let error):
                    action = collection.failed(error.reason, at: clock.now)
                }
            case .wait(let until):
                do {
                    try await clock.sleep(until: until)
                } catch {
                    // Cancelled: the collection ends with what it has, as at its deadline.
                    action = collection.failed("cancelled", at: .init(nanoseconds: .max))
                    continue
                }
                guard let next = collection.timerFired(at: clock.now) else { continue }
                action = next
            }
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
                    try await HTTPClient.get(
                        url, limit: OpenThreadRESTLimits.bodyLimit, accept: request.accept, silence: silence)
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
