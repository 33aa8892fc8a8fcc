import Foundation
import HTTPWebSocket
import HomeEngine
import HomeHub

/// The web dashboard the hub serves at `/` on the Matter-server API's listener: a page of its own (HTML, CSS and
/// script built into the binary, no framework, nothing fetched from elsewhere) that holds one live connection to the
/// hub (`DashboardSocket`) and draws what it is sent. Who may use it is `DashboardAccess`'s to say.
final class Dashboard: Sendable {
    let engine: HubEngine
    let access: DashboardAccess
    /// Who a signed-in page (or, without a token, a loopback one) acts as.
    let caller: HubCaller

    init(engine: HubEngine, token: MatterServerToken?, caller: HubCaller, wrongTokens: WrongTokens) {
        self.engine = engine
        self.caller = caller
        access = DashboardAccess(token: token, wrongTokens: wrongTokens)
    }

    /// A page, an asset, the sign-in and sign-out, asked from `host` (`SocketAddress.hostPrefix`): the answer (the
    /// live socket is the connection's to open).
    func respond(_ route: DashboardRoute, _ request: HTTPRequestHead, body: [UInt8], from host: [UInt8]) -> HTTPResponse
    {
        switch route {
        case .signInPage:
            guard access.needsSignIn else { return DashboardResponse.redirect(to: "/") }
            let wrong = request.queryValue("wrong") != nil
            return DashboardResponse.body(200, DashboardAssets.signIn(wrong: wrong), type: "text/html; charset=utf-8")
        case .signIn:
            return access.signIn(request, form: body, from: host)
        case .signOut:
            return access.signOut(request)
        case .socket:
            return DashboardResponse.text(400, "The live connection is a WebSocket.")
        case .page, .asset:
            // The stylesheet is what the sign-in page needs too; nothing in it is the home's.
            if route == .asset, request.path == "/dashboard/app.css" {
                return DashboardResponse.body(200, DashboardAssets.css, type: "text/css; charset=utf-8")
            }
            switch access.page(request) {
            case .signIn: return DashboardResponse.redirect(to: "/signin")
            case .refused(let response): return response
            case .allowed: break
            }
            if route == .page {
                return DashboardResponse.body(200, DashboardAssets.index, type: "text/html; charset=utf-8")
            }
            switch request.path {
            case "/dashboard/app.js":
                return DashboardResponse.body(200, DashboardAssets.script, type: "text/javascript; charset=utf-8")
            default:
                return diagnostics(request.path)
                    ?? DashboardResponse.text(404, "\(request.path.prefix(64)) is not part of the dashboard.")
            }
        }
    }

    /// `/dashboard/diagnostics/<node>.json`: a node whole, as the Matter-server API gives it, for a bug report.
    private func diagnostics(_ path: String) -> HTTPResponse? {
        let prefix = "/dashboard/diagnostics/"
        guard path.hasPrefix(prefix), path.hasSuffix(".json") else { return nil }
        let name = path.dropFirst(prefix.count).dropLast(5)
        guard name.utf8.count == 16, name.allSatisfy(\.isHexDigit), let nodeID = UInt64(name, radix: 16),
            let node = MatterServerNodes.node(nodeID, engine.model.snapshot)
        else { return DashboardResponse.text(404, "No node \(name.prefix(16)) in the home.") }
        return DashboardResponse.body(
            200, Array(node.rendered.utf8), type: "application/json",
            fields: [HTTPField("Content-Disposition", "attachment; filename=\"node-\(name).json\"")])
    }
}

/// What the dashboard serves, by method and path ("/dashboard/" takes every path under it; "/" only itself).
enum DashboardRoute: Sendable, Hashable {
    case page
    case asset
    case signInPage
    case signIn
    case signOut
    case socket

    static let all: [(String, String, DashboardRoute)] = [
        ("GET", "/", .page), ("GET", "/dashboard/", .asset), ("GET", "/dashboard/socket", .socket),
        ("GET", "/signin", .signInPage), ("POST", "/signin", .signIn), ("POST", "/signout", .signOut),
    ]
}

extension MatterServerClient {
    /// The host this connection comes from, as its wrong tokens are counted.
    var host: [UInt8] { connection.remoteAddress?.hostPrefix ?? [] }

    /// A dashboard request whose head is whole: answered, its form awaited, or its live connection opened.
    func openDashboard(
        _ route: DashboardRoute, _ request: HTTPRequestHead, rest: [UInt8], _ phase: inout Phase
    ) -> ([[UInt8]], Bool, [String]) {
        let dashboard = peers.dashboard
        switch route {
        case .signIn, .signOut:
            let length: Int
            do throws(HTTPError) {
                length = try request.bodyLength(limit: DashboardLimits.signInBody)
            } catch {
                // A sign-out is sent with no body at all.
                guard route == .signOut, request.field("content-length") == nil else {
                    phase = .done
                    return ([error.response.bytes], true, [])
                }
                length = 0
            }
            return continueForm(request, route, rest, length: length, &phase)
        case .socket:
            if let refusal = dashboard.access.refusal(ofAction: request) {
                phase = .done
                return ([refusal.bytes], true, [])
            }
            do throws(HTTPError) {
                let upgrade = try WebSocketHandshake.accept(request)
                var webSocket = WebSocketConnection()
                let socket = DashboardSocket(
                    engine: dashboard.engine, caller: dashboard.caller, session: dashboard.access.session(of: request),
                    access: dashboard.access
                ) { [weak self] text in self?.sendDashboard(text) }
                let (writes, close) = carryOutDashboard(webSocket.receive(rest), &webSocket, socket)
                phase = webSocket.isClosed ? .done : .dashboard(webSocket, socket)
                // Its welcome goes once the upgrade is written (`received`, out of the lock).
                if !webSocket.isClosed { dashboardToStart.withLock { $0 = socket } }
                return ([upgrade.bytes] + writes, close, [])
            } catch {
                phase = .done
                return ([error.handshakeResponse.bytes], true, [])
            }
        case .page, .asset, .signInPage:
            phase = .done
            return ([dashboard.respond(route, request, body: [], from: host).bytes], true, [])
        }
    }

    /// A form's body, until it is whole; then its answer.
    func continueForm(
        _ request: HTTPRequestHead, _ route: DashboardRoute, _ body: [UInt8], length: Int, _ phase: inout Phase
    ) -> ([[UInt8]], Bool, [String]) {
        guard body.count >= length else {
            phase = .form(request, route, body, length: length)
            return ([], false, [])
        }
        phase = .done
        let answer = peers.dashboard.respond(route, request, body: Array(body.prefix(length)), from: host)
        return ([answer.bytes], true, [])
    }

    func carryOutDashboard(
        _ actions: [WebSocketConnection.Action], _ webSocket: inout WebSocketConnection, _ socket: DashboardSocket
    ) -> ([[UInt8]], Bool) {
        let (writes, close, texts) = carryOut(actions, &webSocket)
        for text in texts { socket.received(text) }
        return (writes, close)
    }

    /// One text frame to the dashboard page, unless its connection is closing.
    func sendDashboard(_ text: String) {
        let writes = phase.withLock { phase -> [[UInt8]] in
            guard case .dashboard(var webSocket, let socket) = phase else { return [] }
            let actions = webSocket.send(text: text)
            phase = .dashboard(webSocket, socket)
            return Self.writes(of: actions)
        }
        for bytes in writes { connection.send(bytes) }
    }
}
