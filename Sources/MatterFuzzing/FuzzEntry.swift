import HTTPWebSocket
@_spi(Fuzzing) import HomeEngine
@_spi(Fuzzing) import HubWire
import MatterCertificates
import MatterCrypto
import MatterDevice
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterOnboarding
import MatterSecureChannel
@_spi(Fuzzing) import MatterServer
import MatterTLV

/// The entries the libFuzzer targets of `Fuzz/` call, one per kind of input a peer or a user controls. The
/// normal test run replays the committed corpora (and every past crash) through the same entries, without the
/// sanitizers, so what was fixed stays fixed. An entry never throws: it traps only on a broken invariant.
public enum FuzzEntry: String, CaseIterable, Sendable {
    case tlv = "FuzzTLV"
    case onboarding = "FuzzOnboarding"
    case message = "FuzzMessage"
    case certificates = "FuzzCertificates"
    case dns = "FuzzDNS"
    case interaction = "FuzzInteraction"
    case pase = "FuzzPASE"
    case caseResponder = "FuzzCASE"
    case mdnsResponder = "FuzzMDNSResponder"
    case interactionServer = "FuzzInteractionServer"
    case hubProtocol = "FuzzHubProtocol"
    case hubOperations = "FuzzHubOperations"
    case httpRequest = "FuzzHTTPRequest"
    case webSocket = "FuzzWebSocket"
    case matterServerRequest = "FuzzMatterServerRequest"

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .tlv: Self.tlv(bytes)
        case .onboarding: Self.onboarding(bytes)
        case .message: Self.message(bytes)
        case .certificates: Self.certificates(bytes)
        case .dns: Self.dns(bytes)
        case .interaction: Self.interaction(bytes)
        case .pase: Self.pase(bytes)
        case .caseResponder: Self.caseResponder(bytes)
        case .mdnsResponder: Self.mdnsResponder(bytes)
        case .interactionServer: Self.interactionServer(bytes)
        case .hubProtocol: HubProtocolFuzzing.take(bytes)
        case .hubOperations: HubOperationsFuzzing.take(bytes)
        case .httpRequest: Self.httpRequest(bytes)
        case .webSocket: Self.webSocket(bytes)
        case .matterServerRequest: MatterServerRequestFuzzing.take(bytes)
        }
    }

    /// An HTTP/1.1 request head from anyone who can reach the Matter-server port, and the WebSocket handshake on it:
    /// whatever parses says how long it was, and an accepted handshake answers 101.
    static func httpRequest(_ bytes: [UInt8]) {
        switch HTTPRequestHead.parse(bytes) {
        case .incomplete:
            precondition(bytes.count <= HTTPWebSocketLimits.requestHeadBytes, "an endless head is never incomplete")
        case .complete(let head, let length):
            precondition(length <= bytes.count, "a head longer than its bytes")
            if let response = try? WebSocketHandshake.accept(head) { precondition(response.status == 101) }
        case .invalid(let error):
            precondition([400, 431, 505].contains(error.status), "an unexpected status \(error.status)")
        }
    }

    /// A WebSocket client's bytes after the handshake, fed in two pieces cut where the first byte says: the same
    /// actions either way, and nothing read after the connection closed.
    static func webSocket(_ bytes: [UInt8]) {
        var whole = WebSocketConnection()
        let all = whole.receive(bytes)
        var pieces = WebSocketConnection()
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        let split = pieces.receive(Array(bytes[..<cut])) + pieces.receive(Array(bytes[cut...]))
        precondition(all == split, "the actions depend on how the bytes were cut")
        if let close = all.firstIndex(where: { if case .closeConnection = $0 { true } else { false } }) {
            precondition(close == all.count - 1 && whole.isClosed, "actions after the connection closed")
        }
    }

    /// Matter Core Appendix A TLV: whatever decodes encodes to bytes that decode and encode to the same bytes (bytes,
    /// not elements, are compared: a NaN float is never equal to itself).
    static func tlv(_ bytes: [UInt8]) {
        guard let element = try? TLVReader.decode(bytes) else { return }
        let encoded = TLVWriter.encode(element)
        guard let again = try? TLVReader.decode(encoded) else {
            preconditionFailure("TLV that was written does not decode")
        }
        precondition(TLVWriter.encode(again) == encoded, "TLV round trip changed the element")
    }

    /// Matter Core §5.1 onboarding payloads as a user types or scans them: QR codes and manual codes.
    static func onboarding(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? SetupPayload(qrCode: text)
        _ = try? SetupPayload(qrCode: "MT:" + text)
        _ = try? SetupPayload(manualCode: text)
    }

    /// Matter Core §4.4 message and protocol headers, as any datagram on the Matter port brings them, and the
    /// secured-message path (§4.7: the header, then AES-CCM decryption and the protocol header inside).
    static func message(_ bytes: [UInt8]) {
        _ = try? MessageHeader.decode(bytes)
        _ = try? ProtocolHeader.decode(bytes)
        _ = try? Message.decode(bytes)
        _ = try? Message.decrypt(bytes, key: sessionKey, nonceSourceNodeID: 0x1122_3344)
    }

    private static let sessionKey = [UInt8](repeating: 0x42, count: 16)

    /// What a device being commissioned hands the commissioner: X.509 DER certificates (DAC, PAI), Matter TLV
    /// certificates, the certification declaration's CMS envelope, attestation and NOCSR elements.
    static func certificates(_ bytes: [UInt8]) {
        if let certificate = try? X509Certificate(derEncoded: bytes) {
            _ = try? certificate.basicConstraints
            _ = try? certificate.keyUsage
            _ = try? certificate.subjectKeyIdentifier
            _ = try? certificate.authorityKeyIdentifier
            _ = try? certificate.attestationIdentifiers
            _ = try? MatterCertificate(x509DER: bytes)
        }
        _ = try? MatterCertificate(tlv: bytes)
        _ = try? SignedCertificationDeclaration(derEncoded: bytes)
        _ = try? CertificationDeclaration(tlv: bytes)
        _ = try? AttestationElements(tlv: bytes)
        _ = try? NOCSRElements(tlv: bytes)
        _ = try? CertificateSigningRequest(derEncoded: bytes)
    }

    /// RFC 1035 / RFC 6762 DNS messages, as anyone on the link may multicast them; what decodes re-encodes or says
    /// why not.
    static func dns(_ bytes: [UInt8]) {
        guard let message = try? DNSMessage(decoding: bytes) else { return }
        _ = try? message.encoded()
    }

    /// Matter Core §10.7 Interaction Model messages: those the client decodes and those the server handles.
    static func interaction(_ bytes: [UInt8]) {
        _ = try? ReportDataMessage(payload: bytes)
        _ = try? InvokeResponseMessage(payload: bytes)
        _ = try? StatusResponseMessage(payload: bytes)
        _ = try? SubscribeResponseMessage(payload: bytes)
        _ = try? WriteResponseMessage(payload: bytes)
        _ = try? ReadRequestMessage(payload: bytes)
        _ = try? SubscribeRequestMessage(payload: bytes)
        _ = try? InvokeRequestMessage(payload: bytes)
        _ = try? WriteRequestMessage(payload: bytes)
        _ = try? TimedRequestMessage(payload: bytes)
    }

    /// Matter Core §8 Interaction Model requests as the virtual device's server handles them: a dimmable light's data
    /// model (the device's own cluster servers) fed a sequence of messages, length-prefixed chunks as for PASE, on a
    /// PASE session during commissioning (which may do everything), spread over three exchanges so that a chunked
    /// report's StatusResponses and a timed request's follow-up reach the exchange they belong to; time moves 100 ms
    /// per message, and the server's timers run in between.
    static func interactionServer(_ bytes: [UInt8]) {
        var server = InteractionServer(provider: deviceModel)
        let session = SessionHandle(rawValue: 1)
        let context = AccessContext(
            fabricIndex: 0, subject: AccessContext.paseSubject, authMode: .pase, isCommissioning: true)
        var now = Instant.zero
        for (index, (opcode, payload)) in messages(bytes[...]).enumerated() {
            let exchange = ExchangeHandle(session: session, exchangeID: UInt16(index % 3), role: .responder)
            _ = server.handle(opcode: opcode, payload: payload, on: exchange, context: context, now: now)
            now = now + .milliseconds(100)
            _ = server.tick(now: now)
        }
    }

    /// Built once: generating the attestation chain takes longer than many runs.
    private static let deviceModel: NodeDataModel = {
        let attestation = try! DevelopmentAttestation.generate(vendorID: 0xFFF1, productID: 0x8000, deviceType: 0x0101)
        let window = CommissioningWindow(
            kind: .initial, verifier: paseVerifier, iterations: 1000, salt: paseSalt, discriminator: 3840, deadline: nil
        )
        let node = NodeState(
            identity: NodeIdentity(
                vendorID: 0xFFF1, productID: 0x8000, productName: "fuzz light", serialNumber: "F1", uniqueID: "U1"),
            attestation: attestation, onboardingWindow: window, fabrics: [], random: DeterministicRandom(seed: 3))
        return NodeDataModel(
            node: node, root: .rootNode(interfaces: [], rebootCount: 1, bootTime: .zero),
            applicationEndpoints: DeviceKind.dimmableLight.applicationEndpoints())
    }()

    /// Matter Core §4.14.1 PASE as the device sees it: a fresh responder fed what a stranger sends, one message per
    /// length-prefixed chunk (the first byte of each chunk its opcode).
    static func pase(_ bytes: [UInt8]) {
        var responder = PASEResponder(
            verifierData: paseVerifier, pbkdfParameters: PBKDFParameters(iterations: 1000, salt: paseSalt),
            localSessionID: 1, random: DeterministicRandom(seed: 7))
        for (opcode, payload) in messages(bytes[...]) { _ = responder.receive(opcode: opcode, payload: payload) }
    }

    /// The messages of an input: length-prefixed chunks, the first byte of each its opcode.
    private static func messages(_ bytes: ArraySlice<UInt8>) -> [(opcode: UInt8, payload: [UInt8])] {
        var rest = bytes
        var messages: [(UInt8, [UInt8])] = []
        while let length = rest.first {
            rest = rest.dropFirst()
            let chunk = rest.prefix(Int(length))
            rest = rest.dropFirst(chunk.count)
            guard let opcode = chunk.first else { break }
            messages.append((opcode, Array(chunk.dropFirst())))
        }
        return messages
    }

    private static let paseSalt = [UInt8](repeating: 0x53, count: 16)
    private static let paseVerifier = try! Spake2Plus.verifierData(
        passcode: 20_202_021, salt: paseSalt, iterations: 1000)

    /// Matter Core §4.14.2 CASE as the device sees it, length-prefixed chunks as for PASE. An input that starts with
    /// 0 first gets a genuine Sigma1 for the device's fabric, so the fuzzer reaches Sigma3 and the certificate check.
    static func caseResponder(_ bytes: [UInt8]) {
        var responder = CASEResponder(
            fabrics: [caseDevice], localSessionID: 2, validator: RefuseEveryPeer(), random: DeterministicRandom(seed: 3)
        )
        var rest = bytes[...]
        if rest.first == 0 {
            rest = rest.dropFirst()
            var initiator = CASEInitiator(
                credentials: caseController, peerNodeID: caseDevice.nodeID, localSessionID: 1,
                validator: RefuseEveryPeer(), random: DeterministicRandom(seed: 4))
            if case .send(let opcode, let payload) = initiator.start() {
                _ = responder.receive(opcode: opcode.rawValue, payload: payload)
            }
        }
        for (opcode, payload) in messages(rest) { _ = responder.receive(opcode: opcode, payload: payload) }
    }

    /// Stands in for the certificate layer (fuzzed on its own): no NOC proves anything.
    private struct RefuseEveryPeer: CASEPeerValidator {
        func validate(
            noc: [UInt8], icac: [UInt8]?, credentials: OperationalCredentials
        ) throws(SecureChannelError) -> VerifiedPeer {
            throw .invalidField("fuzzing: no peer is trusted")
        }
    }

    private static let caseRoot = P256.PrivateKey(using: DeterministicRandom(seed: 10))
    private static func caseCredentials(nodeID: UInt64, seed: UInt64) -> OperationalCredentials {
        OperationalCredentials(
            fabricID: 0x2906_C908_D115_D362, nodeID: nodeID, rootPublicKey: caseRoot.publicKey.x963Representation,
            identityProtectionKey: [UInt8](repeating: 0x11, count: 16), noc: Array("NOC of \(nodeID)".utf8), icac: nil,
            operationalKey: P256.PrivateKey(using: DeterministicRandom(seed: seed)))
    }
    private static let caseDevice = caseCredentials(nodeID: 0x11, seed: 11)
    private static let caseController = caseCredentials(nodeID: 0x22, seed: 22)

    /// The mDNS responder (RFC 6762 §6) answering whatever anyone on the link multicasts, with a node published.
    static func mdnsResponder(_ bytes: [UInt8]) {
        guard var responder = publishedResponder else { return }
        _ = responder.receive(bytes, from: 1, sourcePort: 5353, now: Instant(since: .seconds(2)))
        _ = responder.receive(bytes, from: 2, sourcePort: 50_123, now: Instant(since: .seconds(3)))
    }

    /// A responder with one node published, made once (a value: each input gets its own copy).
    private static let publishedResponder: MulticastDNSResponderState<UInt32>? = {
        guard var responder = try? MulticastDNSResponderState<UInt32>(host: responderHost) else { return nil }
        _ = try? responder.advertise(.commissionable(commissionable), now: .zero)
        return responder
    }()

    private static let responderHost = ResponderHost(
        name: "0011223344556677.local", ipv4Addresses: [IPv4Address(0x7F00_0001)], ipv6Addresses: [IPv6Address(0, 1)])
    private static let commissionable = CommissionableAdvertisement(
        instanceName: "5F3A1B2C3D4E5F60", port: 5540, longDiscriminator: 3840, vendorID: 0xFFF1, productID: 0x8000,
        deviceType: 257)
}
