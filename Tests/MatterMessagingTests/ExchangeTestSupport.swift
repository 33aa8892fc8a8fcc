import MatterMessaging
import Testing

/// The tests name peers by strings, over an unreliable link (UDP's kind: MRP runs).
extension String: LinkPeer {
    public var isReliableLink: Bool { false }
    public var maximumMessageSize: Int { MessagingConstants.maximumUDPMessageSize }
}

/// Shorthands for reading the actions of an `ExchangeManager` in tests.
extension Array {
    func datagrams<Address>() -> [[UInt8]] where Element == ExchangeManager<Address>.Action {
        compactMap { action in
            if case let .send(datagram, _) = action { return datagram }
            return nil
        }
    }

    func events<Address>() -> [ExchangeEvent] where Element == ExchangeManager<Address>.Action {
        compactMap { action in
            if case let .deliver(event) = action { return event }
            return nil
        }
    }

    func failures<Address>() -> [ExchangeError] where Element == ExchangeManager<Address>.Action {
        compactMap { action in
            if case let .exchangeFailed(_, error) = action { return error }
            return nil
        }
    }
}

func milliseconds(_ value: Double) -> Instant {
    Instant(nanoseconds: UInt64((value * 1_000_000).rounded()))
}

let echoProtocol = ProtocolID(rawValue: 0x00FF)
let pbkdfParamRequest = ExchangeMessage(
    protocolID: .secureChannel, opcode: SecureChannelOpcode.pbkdfParamRequest.rawValue, payload: [0x15, 0x18])

/// A controller and a device sharing a CASE-like secure session, with randomness that makes every counter
/// start at 1 and every MRP jitter 0.
struct SecurePair {
    static let controllerToDeviceKey = [UInt8](0x00..<0x10)
    static let deviceToControllerKey = [UInt8](0x10..<0x20)
    static let controllerNodeID: UInt64 = 0x0000_0000_0000_AAAA
    static let deviceNodeID: UInt64 = 0x0000_0000_0000_BBBB
    static let controllerSessionID: UInt16 = 0x1111
    static let deviceSessionID: UInt16 = 0x2222

    var controller = ExchangeManager<String>(random: RepeatingRandom([0]))
    var device = ExchangeManager<String>(random: RepeatingRandom([0]))
    let controllerSession: SessionHandle
    let deviceSession: SessionHandle

    init() throws {
        controllerSession = try controller.addSecureSession(
            SecureSessionParameters(
                localSessionID: Self.controllerSessionID, peerSessionID: Self.deviceSessionID,
                encryptionKey: Self.controllerToDeviceKey, decryptionKey: Self.deviceToControllerKey,
                localNonceNodeID: Self.controllerNodeID, peerNonceNodeID: Self.deviceNodeID),
            peer: "device")
        deviceSession = try device.addSecureSession(
            SecureSessionParameters(
                localSessionID: Self.deviceSessionID, peerSessionID: Self.controllerSessionID,
                encryptionKey: Self.deviceToControllerKey, decryptionKey: Self.controllerToDeviceKey,
                localNonceNodeID: Self.deviceNodeID, peerNonceNodeID: Self.controllerNodeID),
            peer: "controller")
    }

    /// Opens what the device sent, as the controller's key would.
    static func openFromDevice(_ datagram: [UInt8]) throws -> Message {
        try Message.decrypt(datagram, key: deviceToControllerKey, nonceSourceNodeID: deviceNodeID)
    }

    static func openFromController(_ datagram: [UInt8]) throws -> Message {
        try Message.decrypt(datagram, key: controllerToDeviceKey, nonceSourceNodeID: controllerNodeID)
    }

    /// The controller opens an exchange and sends `payload` reliably on the echo protocol.
    mutating func request(_ payload: [UInt8], now: Instant) throws -> (ExchangeHandle, [UInt8]) {
        let exchange = try controller.openExchange(on: controllerSession)
        let datagrams = try controller.send(
            ExchangeMessage(protocolID: echoProtocol, opcode: 1, payload: payload), on: exchange, now: now
        ).datagrams()
        return (exchange, try #require(datagrams.first))
    }
}
