import Foundation
import HTTPWebSocket
import HomeEngine
import HubWire

/// The secret a Matter-server API client presents when the API listens beyond loopback (python-matter-server has
/// none: anyone on the network could drive every device): `Authorization: Bearer …`, or on the WebSocket routes,
/// whose clients are given a URL alone, `?token=…` (a request's path is all that is ever shown of its URL). Read from
/// a file that only its owner can read, and never printed or logged.
public struct MatterServerToken: Sendable {
    /// Shorter secrets can be guessed; 16 characters of a random token are about 96 bits.
    static let minimumLength = 16
    private let secret: [UInt8]

    /// The token in `path`: its first line, surrounding white space removed. Refused when the file can be read by
    /// its group or others (make it with `umask 077`, or `chmod 600` it), or when the token is too short.
    public init(contentsOf path: String) throws(HomeError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw HomeError(.invalidArgument, "cannot read the token file \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw HomeError(
                .permissionDenied,
                "the token file \(path) can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))): chmod 600 it"
            )
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw HomeError(.invalidArgument, "cannot read the token file \(path)")
        }
        let line = String(decoding: contents, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        let token = line.trimmingCharacters(in: .whitespaces)
        guard token.count >= Self.minimumLength else {
            throw HomeError(
                .invalidArgument, "the token in \(path) is shorter than \(Self.minimumLength) characters")
        }
        secret = Array(token.utf8)
    }

    enum Presentation: Sendable, Hashable {
        case absent
        case wrong
        case right
    }

    /// What the request presents: `Authorization: Bearer …`, or with `inQuery` a URL's `?token=…`.
    func presentation(in request: HTTPRequestHead, inQuery: Bool) -> Presentation {
        let bearer = request.field("Authorization").flatMap { value -> String? in
            let parts = value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else { return nil }
            return String(parts[1]).trimmingCharacters(in: .whitespaces)
        }
        guard let presented = bearer ?? (inQuery ? request.queryValue("token") : nil) else { return .absent }
        return matches(presented) ? .right : .wrong
    }

    /// Whether `presented` is the token, compared in time that does not depend on where it differs.
    func matches(_ presented: String) -> Bool {
        let presented = Array(presented.utf8)
        guard presented.count == secret.count else { return false }
        return zip(presented, secret).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
