import Foundation
import HTTPWebSocket

/// The dashboard's HTTP answers, each with the fields every one of them carries: a Content-Security-Policy that lets
/// the page load and connect to nothing but the hub it came from (no CDN, no other host, no inline script), no
/// framing by another site, no sniffing, no Referer beyond the hub, and no caching of what a session sees.
enum DashboardResponse {
    static let securityFields = [
        HTTPField(
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                + "connect-src 'self'; media-src 'self' blob:; form-action 'self'; frame-ancestors 'none'; "
                + "base-uri 'none'"),
        HTTPField("X-Content-Type-Options", "nosniff"),
        // Same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with a form, and the sign-in
        // could not tell the dashboard's own page from another site's.
        HTTPField("Referrer-Policy", "same-origin"),
        HTTPField("X-Frame-Options", "DENY"),
        HTTPField("Cache-Control", "no-store"),
        HTTPField("Connection", "close"),
    ]

    static func body(_ status: Int, _ bytes: [UInt8], type: String, fields: [HTTPField] = []) -> HTTPResponse {
        HTTPResponse(status: status, fields: [HTTPField("Content-Type", type)] + securityFields + fields, body: bytes)
    }

    /// A short page that says `message` (a refusal, an error).
    static func text(_ status: Int, _ message: String) -> HTTPResponse {
        let page =
            "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>swift-home</title>"
            + "<link rel=\"stylesheet\" href=\"/dashboard/app.css\"><main class=\"notice\"><h1>swift-home</h1><p>"
            + escape(message) + "</p></main></html>"
        return body(status, Array(page.utf8), type: "text/html; charset=utf-8")
    }

    static func redirect(to location: String) -> HTTPResponse {
        HTTPResponse(status: 303, fields: [HTTPField("Location", location)] + securityFields)
    }

    /// Text for HTML: the five characters that could end an element or an attribute, escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
