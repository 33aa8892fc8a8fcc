import Foundation
import HomeRecords

/// The hub's local client socket, `hub.socket` in the state directory. Our own protocol:
/// - each message is one frame: its length (4 bytes, big-endian) then that many bytes of JSON;
/// - the client speaks first, `hello` with its protocol version; the hub answers `welcome` (its status and the
///   home's whole model, which the client mirrors) or `refused` (naming both versions) and closes;
/// - then the client sends `request`s, each with its own number, the operation's name and its arguments, and the hub
///   answers each with `reply` or `failure` under that number, in any order; between them it sends `changes`, every
///   batch of the model's changes in order, each before the reply of the request that caused it. An operation the
///   hub does not have, or arguments that do not decode as its own, fail that request only.
/// A frame over its limit, or one that does not decode, ends the connection with a `refused` naming why; the hub
/// serves its other clients on.
package enum HubProtocol {
    /// Bumped on any change a client of the previous version would misread (2: the add-device session's rooms are
    /// read from its state file, no longer asked of the hub; 3: a request names its operation and carries its
    /// arguments as that operation's own JSON).
    package static let version = 3
    package static let socketName = "hub.socket"
    /// A client's message: a request names devices and values, never a home; 1 MiB is far above any.
    package static let clientMessageLimit = 1 << 20
    /// The hub's message: its welcome carries the whole model (about 12 KB per dimmable light as JSON), so a
    /// thousand nodes fit with room to spare.
    package static let hubMessageLimit = 64 << 20

    package enum ClientMessage: Codable, Sendable {
        case hello(version: Int)
        /// `operation` is a hub operation's name (`HubOperation.name`), `arguments` the operation's own JSON.
        case request(id: UInt64, operation: String, arguments: UntypedJSON)
    }

    package enum HubMessage: Codable, Sendable {
        /// `failure`: why the hub cannot read its store now, when it cannot (its queries refuse to answer).
        case welcome(version: Int, status: HubStatus, snapshot: HomeSnapshot, failure: String?)
        case refused(reason: String)
        /// The operation's reply, as its own JSON.
        case reply(id: UInt64, UntypedJSON)
        case failure(id: UInt64, code: HomeError.Code, message: String)
        case changes(MirroredChanges)
        /// A line of progress of the request with that number, before its reply.
        case progress(id: UInt64, HubProgress)
    }

    package static func encode(_ message: some Encodable) -> [UInt8] {
        // Every message type here encodes (a failure would be a bug); an empty frame is refused by the peer.
        let payload = (try? JSONEncoder().encode(message)).map { Array($0) } ?? []
        let length = UInt32(payload.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + payload
    }

    package static func decode<Message: Decodable>(
        _ type: Message.Type, from frame: [UInt8]
    ) throws(FrameError) -> Message {
        do {
            return try JSONDecoder().decode(type, from: Data(frame))
        } catch {
            throw .malformed("\(error)")
        }
    }
}

extension HomeError.Code: Codable {}

/// Why a peer's bytes were refused.
package enum FrameError: Error, Hashable, CustomStringConvertible {
    case oversized(length: Int, limit: Int)
    case malformed(String)

    package var description: String {
        switch self {
        case .oversized(let length, let limit): "a message of \(length) bytes is over the limit of \(limit)"
        case .malformed(let reason): "a message that does not decode: \(reason)"
        }
    }
}

/// Cuts a byte stream into frames: bytes in as they arrive, whole frames out. A length over the limit is refused as
/// soon as its four bytes are in, before anything of it is kept.
package struct FrameDecoder {
    package let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0

    package init(limit: Int) {
        self.limit = limit
    }

    package mutating func append(_ bytes: [UInt8]) throws(FrameError) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var frames: [[UInt8]] = []
        while buffer.count - start >= 4 {
            let length =
                Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8
                | Int(buffer[start + 3])
            guard length > 0 else { throw .malformed("an empty message") }
            guard length <= limit else { throw .oversized(length: length, limit: limit) }
            guard buffer.count - start - 4 >= length else { break }
            frames.append(Array(buffer[(start + 4)..<(start + 4 + length)]))
            start += 4 + length
        }
        // Drop what was consumed once it is most of the buffer, so a long connection does not keep it.
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return frames
    }
}
