import HubWire

/// What the fuzz target feeds the hub's operation decoding: arbitrary bytes as a client's stream of frames, each
/// request decoded into the operation it names as the hub decodes it (nothing is run). Bad input must be refused,
/// never trap.
@_spi(Fuzzing)
public enum HubOperationsFuzzing {
    public static func take(_ bytes: [UInt8]) {
        var decoder = FrameDecoder(limit: HubProtocol.clientMessageLimit)
        guard let frames = try? decoder.append(bytes) else { return }
        for frame in frames {
            guard
                case .request(_, let operation, let arguments)? = try? HubProtocol.decode(
                    HubProtocol.ClientMessage.self, from: frame)
            else { continue }
            _ = try? HubOperations.request(operation, arguments: arguments)
        }
    }
}
