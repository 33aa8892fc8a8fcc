/// What the fuzz target feeds the hub's local socket protocol: arbitrary bytes as a client's stream (cut into frames
/// at the client limit, each decoded as the hub decodes a client's message), and the same bytes as the hub's
/// stream as a client decodes it. Bad input must be refused, never trap.
@_spi(Fuzzing)
public enum HubProtocolFuzzing {
    public static func take(_ bytes: [UInt8]) {
        // The first byte says where the stream is cut in two reads, so frames split across reads are covered.
        let cut = bytes.first.map { Int($0) % (bytes.count + 1) } ?? 0
        var client = FrameDecoder(limit: HubProtocol.clientMessageLimit)
        var hub = FrameDecoder(limit: HubProtocol.hubMessageLimit)
        for part in [Array(bytes[..<cut]), Array(bytes[cut...])] {
            if let frames = try? client.append(part) {
                for frame in frames { _ = try? HubProtocol.decode(HubProtocol.ClientMessage.self, from: frame) }
            }
            if let frames = try? hub.append(part) {
                for frame in frames { _ = try? HubProtocol.decode(HubProtocol.HubMessage.self, from: frame) }
            }
        }
    }
}
