// RFC 9110 §15.5.5 404 Not Found and §15.5.6 405 Method Not Allowed (with Allow, §10.2.1)
/// The routes of one server by method and path (a query string is the route's own business): the Matter-server API's
/// `/info` and `/ws`, and a dashboard's pages beside them, through one router. A path no route has is 404; a path
/// asked with a method none of its routes takes is 405, saying which it takes.
public struct HTTPRouter<Route: Sendable>: Sendable {
    /// What a request asks for: a route, or the refusal to send.
    public enum Match: Sendable {
        case route(Route)
        case refused(HTTPResponse)
    }

    private var routes: [String: [(method: String, route: Route)]] = [:]
    /// Routes of every path under a prefix (`/ota-upload/` and an ID), longest prefix first.
    private var prefixRoutes: [(prefix: String, methods: [(method: String, route: Route)])] = []
    /// Said after the path in a 404, to point the client to what is served.
    private let notFoundHint: String

    public init(notFoundHint: String = "") {
        self.notFoundHint = notFoundHint
    }

    /// Serves `method` on `path` (exactly, from its leading slash) with `route`.
    public mutating func add(_ method: String, _ path: String, _ route: Route) {
        routes[path, default: []].append((method, route))
    }

    /// Serves `method` on every path that starts with `prefix` (the route reads the rest from the path); an exact
    /// path's routes come first.
    public mutating func add(_ method: String, pathsUnder prefix: String, _ route: Route) {
        if let index = prefixRoutes.firstIndex(where: { $0.prefix == prefix }) {
            prefixRoutes[index].methods.append((method, route))
        } else {
            prefixRoutes.append((prefix, [(method, route)]))
            prefixRoutes.sort { $0.prefix.count > $1.prefix.count }
        }
    }

    public func match(_ request: HTTPRequestHead) -> Match {
        let underPrefix = prefixRoutes.first { request.path.hasPrefix($0.prefix) }?.methods
        guard let byMethod = routes[request.path] ?? underPrefix else {
            let shown = String(request.path.prefix(HTTPWebSocketLimits.pathShownInErrors))
            let hint = notFoundHint.isEmpty ? "" : ": " + notFoundHint
            return .refused(HTTPError(404, "\(shown) is not served\(hint)").response)
        }
        guard let route = byMethod.first(where: { $0.method == request.method })?.route else {
            let allowed = byMethod.map(\.method).joined(separator: ", ")
            var response = HTTPError(405, "\(request.path) takes \(allowed) only").response
            response.fields.append(HTTPField("Allow", allowed))
            return .refused(response)
        }
        return .route(route)
    }
}
