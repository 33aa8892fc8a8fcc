import HomeRecords
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterTLV
import MatterTestSupport

@testable import HomeHub

/// A "device" on its own transport on ::1 that shares a secure session (fixed keys, no PASE) with a controller
/// transport, and hands each exchange the controller opens to the test's hand-written Interaction Model responder.
final class LoopbackInteractionDevice: Sendable {
    let transport: MatterTransport
    let session: SessionHandle
    let controller: MatterTransport
    let client: InteractionClient
    private let responder: Task<Void, Never>

    /// The device's MRP intervals as the client assumes them: short, so that a lost subscription is noticed
    /// within a second or two of its max interval.
    static let peerParameters = MRPParameters(idleInterval: .milliseconds(50), activeInterval: .milliseconds(50))

    /// On loopback UDP and the system clock, or on a test network and its manual clock.
    init(
        network: ClockedNetwork? = nil, respond: @escaping @Sendable (DeviceExchange) async throws -> Void
    ) async throws {
        if let network {
            transport = network.transport()
            controller = network.transport()
        } else {
            transport = try MatterTransport()
            controller = try MatterTransport()
        }
        let devicePort = try transport.localPorts().ipv6
        let controllerPort = try controller.localPorts().ipv6
        let controllerToDevice = [UInt8](repeating: 0x11, count: 16)
        let deviceToController = [UInt8](repeating: 0x22, count: 16)
        session = try await transport.addSecureSession(
            SecureSessionParameters(
                localSessionID: 2, peerSessionID: 1, encryptionKey: deviceToController,
                decryptionKey: controllerToDevice, localNonceNodeID: 0, peerNonceNodeID: 0),
            peer: .udp(.ipv6(IPv6Address(0, 1), port: controllerPort)))
        let controllerSession = try await controller.addSecureSession(
            SecureSessionParameters(
                localSessionID: 1, peerSessionID: 2, encryptionKey: controllerToDevice,
                decryptionKey: deviceToController, localNonceNodeID: 0, peerNonceNodeID: 0),
            peer: .udp(.ipv6(IPv6Address(0, 1), port: devicePort)))
        client = InteractionClient(
            transport: controller, session: controllerSession, peerParameters: Self.peerParameters)
        let transport = transport
        responder = Task {
            for await (exchange, message) in transport.incomingExchanges {
                try? await respond(DeviceExchange(transport: transport, exchange: exchange, first: message))
            }
        }
    }

    /// An exchange the device opens, as a publisher does for each report after priming.
    func openExchange() async throws -> DeviceExchange {
        DeviceExchange(transport: transport, exchange: try await transport.openExchange(on: session), first: nil)
    }

    func stop() async {
        responder.cancel()
        await controller.shutdown()
        await transport.shutdown()
    }
}

/// One exchange on the device's side: what the controller sent first, and sending and receiving IM messages.
struct DeviceExchange: Sendable {
    let transport: MatterTransport
    let exchange: ExchangeHandle
    let first: ExchangeMessage?

    func send<Message: InteractionMessage>(_ message: Message) async throws {
        try await transport.send(
            ExchangeMessage(
                protocolID: .interactionModel, opcode: Message.opcode.rawValue,
                payload: message.encoded()), on: exchange)
    }

    func receive(timeout: Duration = .seconds(5)) async throws -> ExchangeMessage {
        try await transport.receive(on: exchange, timeout: timeout)
    }

    /// Waits for the controller's StatusResponse and returns its status.
    func receiveStatus() async throws -> InteractionModelStatus {
        let message = try await receive()
        guard message.opcode == InteractionModelOpcode.statusResponse.rawValue else {
            throw UnexpectedOpcode(opcode: message.opcode)
        }
        return try StatusResponseMessage(payload: message.payload).status
    }

    func close() async {
        await transport.close(exchange)
    }
}

struct UnexpectedOpcode: Error {
    let opcode: UInt8
}
