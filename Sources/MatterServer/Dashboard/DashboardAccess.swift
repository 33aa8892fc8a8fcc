import Foundation
import HTTPWebSocket
import MatterCrypto
import Synchronization

/// Who may use the dashboard, decided here and nowhere else.
/// - Without a token the listener is on loopback only, and a request is served only when its Host names loopback:
///   a web page elsewhere whose name was made to resolve to 127.0.0.1 (DNS rebinding) is refused.
/// - With a token, a browser signs in once: `POST /signin` with the token in its form body (never in a URL, which
///   logs keep) sets a session cookie, HttpOnly (no script reads it) and SameSite=Strict (no other site's page sends
///   it); every request but the sign-in page and the stylesheet needs it. Sessions live in the hub's memory: a
///   restarted hub signs every browser out.
/// - What acts (the sign-in, the live socket that carries commands, the sign-out) must come from the dashboard's own
///   page: its Origin is this Host's. A browser always sends one there; another site's page cannot forge it.
final class DashboardAccess: Sendable {
    static let cookieName = "swift-home-session"

    enum Verdict: Sendable {
        case allowed
        /// A page asked without a session: the sign-in page instead.
        case signIn
        case refused(HTTPResponse)
    }

    private let token: MatterServerToken?
    private let sessions = Mutex<[String: Date]>([:])
    /// Wrong tokens by host, the API's routes' and the sign-in's together.
    private let wrongTokens: WrongTokens

    init(token: MatterServerToken?, wrongTokens: WrongTokens) {
        self.token = token
        self.wrongTokens = wrongTokens
    }

    /// Whether the dashboard asks for a sign-in at all.
    var needsSignIn: Bool { token != nil }

    /// A page, an asset, a download.
    func page(_ request: HTTPRequestHead) -> Verdict {
        guard token != nil else {
            return Self.namesLoopback(request.field("host"))
                ? .allowed
                : .refused(
                    DashboardResponse.text(
                        403,
                        "This hub's dashboard is served to this computer only: open it at http://127.0.0.1 or "
                            + "http://[::1] with the hub's port, or give the hub a token to serve it further."))
        }
        return hasSession(request) ? .allowed : .signIn
    }

    /// Something that acts (the live socket): why it is refused, or nil when it is a signed-in page's own request from
    /// its own origin.
    func refusal(ofAction request: HTTPRequestHead) -> HTTPResponse? {
        guard Self.isSameOrigin(request) else { return Self.foreignOrigin }
        switch page(request) {
        case .allowed: return nil
        case .signIn: return DashboardResponse.text(401, "Sign in first.")
        case .refused(let response): return response
        }
    }

    /// The session a request holds, when sign-in is asked and it holds one.
    func session(of request: HTTPRequestHead) -> String? {
        token == nil ? nil : Self.sessionID(request)
    }

    /// Whether a live socket opened under `session` may still act: its session not signed out, evicted or expired
    /// since (nil: no sign-in is asked).
    func stillSignedIn(_ session: String?) -> Bool {
        guard let session else { return token == nil }
        return sessions.withLock { $0[session].map { $0 > Date() } ?? false }
    }

    private static let foreignOrigin = DashboardResponse.text(
        403, "This request did not come from the dashboard's own page.")

    /// `POST /signin` from `host`: the token from the form, a session for it; a host that gave `WrongTokens.limit`
    /// wrong tokens within the window (here or on the API's routes) is refused until it ends.
    func signIn(_ request: HTTPRequestHead, form: [UInt8], from host: [UInt8]) -> HTTPResponse {
        guard Self.isSameOrigin(request) else { return Self.foreignOrigin }
        guard let token else { return DashboardResponse.redirect(to: "/") }
        if wrongTokens.isRefused(host) { return DashboardResponse.text(429, WrongTokens.refusal) }
        let presented = Self.formValue("token", in: form) ?? ""
        guard token.matches(presented.trimmingCharacters(in: .whitespaces)) else {
            wrongTokens.record(host)
            return DashboardResponse.redirect(to: "/signin?wrong=1")
        }
        let id = MatterServerTopology.hex(SystemRandom().bytes(32))
        sessions.withLock { sessions in
            let now = Date()
            sessions = sessions.filter { $0.value > now }
            while sessions.count >= DashboardLimits.sessions, let oldest = sessions.min(by: { $0.value < $1.value }) {
                sessions.removeValue(forKey: oldest.key)
            }
            sessions[id] = now.addingTimeInterval(DashboardLimits.sessionLifetime)
        }
        var response = DashboardResponse.redirect(to: "/")
        response.fields.append(
            HTTPField(
                "Set-Cookie",
                "\(Self.cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(DashboardLimits.sessionLifetime))"
            ))
        return response
    }

    /// `POST /signout`: the session ends here and in the browser.
    func signOut(_ request: HTTPRequestHead) -> HTTPResponse {
        guard Self.isSameOrigin(request) else { return Self.foreignOrigin }
        if let id = Self.sessionID(request) { _ = sessions.withLock { $0.removeValue(forKey: id) } }
        var response = DashboardResponse.redirect(to: token == nil ? "/" : "/signin")
        response.fields.append(
            HTTPField("Set-Cookie", "\(Self.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"))
        return response
    }

    private func hasSession(_ request: HTTPRequestHead) -> Bool {
        guard let id = Self.sessionID(request) else { return false }
        return sessions.withLock { sessions in
            guard let expiry = sessions[id] else { return false }
            guard expiry > Date() else {
                sessions.removeValue(forKey: id)
                return false
            }
            return true
        }
    }

    /// The session cookie's value, when the request carries one of the right form (64 hex digits).
    static func sessionID(_ request: HTTPRequestHead) -> String? {
        for pair in (request.field("cookie") ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == cookieName else { continue }
            let value = parts[1]
            if value.utf8.count == 64, value.allSatisfy(\.isHexDigit) { return value }
        }
        return nil
    }

    /// Origin is `http://` or `https://` and exactly the Host the request was sent to.
    static func isSameOrigin(_ request: HTTPRequestHead) -> Bool {
        guard let origin = request.field("origin"), let host = request.field("host"), !host.isEmpty else {
            return false
        }
        return origin == "http://" + host || origin == "https://" + host
    }

    /// A Host field that names this computer: localhost, 127.0.0.0/8 or ::1, with or without a port.
    static func namesLoopback(_ host: String?) -> Bool {
        guard var host = host?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            return host[host.index(after: host.startIndex)..<end] == "::1"
        }
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        if host == "localhost" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// A value of an `application/x-www-form-urlencoded` body.
    static func formValue(_ name: String, in body: [UInt8]) -> String? {
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == name else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }
}
