import Foundation
import HTTPWebSocket
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterPlatform
import MatterTLV

// The Matter-server API's commissioning commands: by code, on the network, discovery, and a commissioning window
// to share a node.
extension MatterServerClient {
    func discover(_ id: String) {
        work { [self] in
            do throws(HomeError) {
                let nodes = try await discover().map(Self.commissionableNodeData)
                send(Self.reply(id, JSONValue.array(nodes).rendered))
            } catch {
                send(Self.error(id, .unknown, error.message))
            }
        }
    }

    /// A device added by its QR or manual code: the new node once its devices are in the home and the hub follows it.
    /// A code that says the device is found over Bluetooth LE goes over Bluetooth when a proxy client is connected
    /// to `/ble` or the hub's adapter is there (the device is given the hub's Wi-Fi or Thread network, then found on
    /// IP); otherwise, or with `network_only`, over IP (discovery on the hub's interfaces). A Bluetooth-only code
    /// with neither is refused, saying which is missing.
    func commissionWithCode(_ id: String, _ args: CommissionWithCodeArguments) {
        let code = args.code
        let networkOnly = args.networkOnly ?? false
        guard let payload = try? SetupPayload(parsing: code) else {
            return send(Self.error(id, .invalidArguments, "\(code.prefix(40)) is no QR or manual pairing code"))
        }
        // Schema 12: which stored network the device is given, by the IDs of get_all_credentials.
        let networks = NetworkIDs(wifi: args.wifiCredentialsID, thread: args.threadDatasetID)
        work { [self] in
            let bluetooth: BluetoothChoice?
            do throws(HomeError) {
                bluetooth = try await engine.bluetooth(for: payload, networkOnly: networkOnly)
            } catch {
                return send(
                    Self.error(id, .nodeCommissionFailed, error.message + ", or send network_only"))
            }
            await commissionAnswering(id, code: code, address: nil, bluetooth: bluetooth, networks: networks)
        }
    }

    /// A device in commissioning mode on the network, by its passcode: at `ip_addr` (port 5540, Matter's default),
    /// or found by DNS-SD with a discriminator filter (`filter_type` 1, short; 2, long). Other filters (vendor,
    /// device type, …) are not built and say so.
    func commissionOnNetwork(_ id: String, _ args: CommissionOnNetworkArguments) {
        let pin = args.setupPinCode
        let filter = args.filter
        let discriminator: Discriminator
        switch args.filterType ?? 0 {
        case 0: discriminator = .short(0)  // unused: the address says where the device is
        case 1 where (filter ?? .max) <= 15: discriminator = .short(UInt8(filter ?? 0))
        case 2 where (filter ?? .max) <= 4095: discriminator = .long(UInt16(filter ?? 0))
        case 1, 2: return send(Self.missing(id, "filter"))
        case let other:
            return send(
                Self.error(
                    id, .invalidArguments,
                    "filter_type \(other) is not built: give ip_addr, or a discriminator (filter_type 1 or 2)"))
        }
        var address: SocketAddress?
        if let text = args.ipAddress {
            if let ipv6 = IPv6Address(text) {
                address = .ipv6(ipv6, port: 5540)
            } else if let ipv4 = IPv4Address(text) {
                address = .ipv4(ipv4, port: 5540)
            } else {
                return send(Self.error(id, .invalidArguments, "ip_addr \(text.prefix(60)) is no IP address"))
            }
        } else if args.filterType ?? 0 == 0 {
            return commissionByPasscode(id, pin)
        }
        let payload = SetupPayload(
            vendorID: nil, productID: nil, discoveryCapabilities: [.onNetwork], discriminator: discriminator,
            passcode: pin)
        guard let code = try? payload.manualCode() else {
            return send(Self.error(id, .invalidArguments, "\(pin) is not a valid setup passcode"))
        }
        commission(id, code: code, address: address)
    }

    /// Commissions the device of `code` (at `address`, or found by discovery on the hub's interfaces) and answers its
    /// node once the hub follows it.
    func commission(_ id: String, code: String, address: SocketAddress?) {
        work { [self] in await commissionAnswering(id, code: code, address: address, bluetooth: nil) }
    }

    private func commissionAnswering(
        _ id: String, code: String, address: SocketAddress?, bluetooth: BluetoothChoice?,
        networks: NetworkIDs = NetworkIDs()
    ) async {
        do throws(HomeError) {
            send(
                Self.reply(
                    id,
                    try await commissioned(code: code, address: address, bluetooth: bluetooth, networks: networks)
                        .rendered))
        } catch {
            send(
                Self.error(id, error.code == .notFound ? .invalidArguments : .nodeCommissionFailed, error.message))
        }
    }

    /// The stored networks a device reached over Bluetooth LE is given; nil: the "default" ones.
    struct NetworkIDs: Sendable {
        var wifi: String?
        var thread: String?
    }

    /// The node the device becomes, once commissioned and followed: as python-matter-server answers, after the
    /// first subscription, so the node comes whole.
    func commissioned(
        code: String, address: SocketAddress?, bluetooth: BluetoothChoice? = nil, networks: NetworkIDs = NetworkIDs()
    ) async throws(HomeError) -> JSONValue {
        let local = engine
        var request = CommissionDevice(
            payload: code, address: bluetooth == nil ? address ?? local.commissioning.address : nil,
            interfaces: local.commissioning.interfaces, paaTrustStore: local.commissioning.paaTrustStore,
            acceptUntrustedDevice: false, name: nil, room: nil, bluetooth: bluetooth)
        request.wifiCredentialsID = networks.wifi
        request.threadDatasetID = networks.thread
        let device = try await engine.perform(request, caller: caller)
        _ = try? await engine.perform(FollowNode(nodeID: device.nodeID), caller: caller)
        guard let node = MatterServerNodes.node(device.nodeID, engine.model.snapshot) else {
            throw HomeError(.unavailable, "the node left the home meanwhile")
        }
        return node
    }

    /// `get_thread_border_routers` (schema 12): the Thread Border Routers that answer on the hub's interfaces
    /// (DNS-SD `_meshcop._udp`, no credentials needed), as matterjs-server's BorderRouterEntry: keyed by the border
    /// agent's extended address (one that advertises none is left out: nothing could join it to a node's neighbours).
    func threadBorderRouters(_ id: String) {
        hearsThreadDiagnostics.withLock { $0 = true }
        work { [self] in
            let interfaces = engine.commissioning.interfaces
            guard !interfaces.isEmpty else {
                return send(
                    Self.error(
                        id, .unknown,
                        "the hub looks for border routers on no interface: start it with home serve --interface NAME"))
            }
            let routers: [ThreadBorderRouter]
            do throws(MulticastDNSError) {
                routers = try await MulticastDNSQuerier().browseThreadBorderRouters(
                    interfaces: interfaces, timeout: Self.discoveryWindow)
            } catch {
                return send(Self.error(id, .unknown, "\(error)"))
            }
            peers.topology.heard(routers)
            let seen = UInt64(Date().timeIntervalSince1970 * 1000)
            send(
                Self.reply(id, JSONValue.array(routers.compactMap { Self.borderRouterEntry($0, seen: seen) }).rendered))
        }
    }

    static func borderRouterEntry(_ router: ThreadBorderRouter, seen: UInt64) -> JSONValue? {
        guard let extendedAddress = router.extendedAddress else { return nil }
        func hex(_ bytes: [UInt8]) -> JSONValue { .string(MatterServerTopology.hex(bytes)) }
        func hex16(_ value: UInt64) -> JSONValue { .string(MatterServerTopology.hex(value)) }
        var fields: [(String, JSONValue)] = [("extAddressHex", hex16(extendedAddress))]
        if let panID = router.extendedPANID { fields.append(("extendedPanIdHex", hex16(panID))) }
        if let name = router.networkName { fields.append(("networkName", .string(name))) }
        if let vendor = router.vendorName { fields.append(("vendorName", .string(vendor))) }
        if let model = router.modelName { fields.append(("modelName", .string(model))) }
        fields.append(("hostname", .string(router.hostName.description + ".")))
        let addresses = (router.ipv4Addresses.map(\.description) + router.ipv6Addresses.map(\.description)).sorted()
        fields.append(("addresses", .array(addresses.map(JSONValue.string))))
        fields.append(("meshcopPort", .unsigned(UInt64(router.port))))
        if let version = router.threadVersion { fields.append(("threadVersion", .string(version))) }
        if let agent = router.borderAgentID { fields.append(("borderAgentIdHex", hex(agent))) }
        if let state = router.stateBitmap { fields.append(("stateBitmapHex", hex(state))) }
        if let timestamp = router.activeTimestamp { fields.append(("activeTimestampHex", hex(timestamp))) }
        if let partition = router.partitionID { fields.append(("partitionIdHex", hex(partition))) }
        if let domain = router.domainName { fields.append(("domainName", .string(domain))) }
        fields += [("sources", .array([.string("meshcop")])), ("lastSeen", .unsigned(seen))]
        return .object(fields)
    }

    /// How long `discover` (and commissioning by passcode alone) listens for commissionable devices: as long as
    /// `home discover` does by default, enough for every device on the link to answer a query and its retries.
    static let discoveryWindow: Duration = .seconds(3)

    /// The devices in commissioning mode that answer on the hub's interfaces (DNS-SD `_matterc._udp`), as
    /// python-matter-server's CommissionableNodeData.
    func discover() async throws(HomeError) -> [CommissionableNode] {
        let interfaces = engine.commissioning.interfaces
        guard !interfaces.isEmpty else {
            throw HomeError(
                .failedPrecondition,
                "the hub looks for devices on no interface: start it with home serve --interface NAME")
        }
        do throws(MulticastDNSError) {
            return try await MulticastDNSQuerier().browseCommissionable(
                .all, interfaces: interfaces, timeout: Self.discoveryWindow)
        } catch {
            throw HomeError(.unavailable, "discovery on \(interfaces.joined(separator: ", ")): \(error)")
        }
    }

    static func commissionableNodeData(_ node: CommissionableNode) -> JSONValue {
        let txt = node.txt
        let number = { (value: UInt64?) -> JSONValue in value.map(JSONValue.unsigned) ?? .null }
        let text = { (value: String?) -> JSONValue in value.map(JSONValue.string) ?? .null }
        let milliseconds = { (duration: Duration?) -> JSONValue in
            number(duration.map { UInt64($0 / .milliseconds(1)) })
        }
        let addresses: [String] = node.ipv6Addresses.map(\.description) + node.ipv4Addresses.map(\.description)
        // §4.3.1.9: T is a bitmap; bit 1 or 2 says TCP as a client or a server.
        let tcp: Bool = (txt.tcpSupport ?? 0) & 0b110 != 0
        let members: [(String, JSONValue)] = [
            ("instance_name", .string(node.instanceName)),
            ("host_name", .string(node.hostName.description)),
            ("port", .unsigned(UInt64(node.port))),
            ("long_discriminator", number(node.longDiscriminator.map(UInt64.init))),
            ("vendor_id", number(txt.vendorID.map(UInt64.init))),
            ("product_id", number(txt.productID.map(UInt64.init))),
            ("commissioning_mode", number(txt.commissioningMode.map(UInt64.init))),
            ("device_type", number(txt.deviceType.map(UInt64.init))),
            ("device_name", text(txt.deviceName)),
            ("pairing_instruction", text(txt.pairingInstruction)),
            ("pairing_hint", number(txt.pairingHint.map(UInt64.init))),
            ("mrp_retry_interval_idle", milliseconds(txt.sessionIdleInterval)),
            ("mrp_retry_interval_active", milliseconds(txt.sessionActiveInterval)),
            ("supports_tcp", .bool(tcp)),
            ("addresses", .array(addresses.map(JSONValue.string))),
            ("rotating_id", text(txt.rotatingID)),
        ]
        return .object(members)
    }

    /// Commissioning by passcode alone: every device in commissioning mode on the hub's interfaces is tried in turn
    /// (the passcode is what tells them apart) until one is commissioned.
    func commissionByPasscode(_ id: String, _ passcode: UInt32) {
        work { [self] in
            do throws(HomeError) {
                let candidates = try await discover().filter { ($0.txt.commissioningMode ?? 0) != 0 }
                guard !candidates.isEmpty else {
                    return send(
                        Self.error(
                            id, .nodeCommissionFailed,
                            "no device in commissioning mode answered within \(Self.discoveryWindow)"))
                }
                var failures: [String] = []
                for candidate in candidates {
                    guard let discriminator = candidate.longDiscriminator,
                        let address = candidate.ipv6Addresses.first.map({ SocketAddress.ipv6($0, port: candidate.port) }
                        )
                            ?? candidate.ipv4Addresses.first.map({ SocketAddress.ipv4($0, port: candidate.port) }),
                        let code = try? SetupPayload(
                            vendorID: nil, productID: nil, discoveryCapabilities: [.onNetwork],
                            discriminator: .long(discriminator), passcode: passcode
                        ).manualCode()
                    else { continue }
                    do throws(HomeError) {
                        return send(Self.reply(id, try await commissioned(code: code, address: address).rendered))
                    } catch {
                        failures.append("\(candidate.instanceName): \(error.message)")
                    }
                }
                send(
                    Self.error(
                        id, .nodeCommissionFailed, "no device took the passcode: " + failures.joined(separator: "; ")))
            } catch {
                send(Self.error(id, .nodeCommissionFailed, error.message))
            }
        }
    }

    /// An enhanced commissioning window (Matter Core §11.19.8.1) on the node, for another controller: its passcode and
    /// codes. The window's discriminator and PBKDF iterations are the hub's own choice, so a request for others is
    /// refused rather than silently ignored.
    func openWindow(_ id: String, _ args: OpenCommissioningWindowArguments) {
        let nodeID = args.nodeID
        let timeout = args.timeout ?? 300
        guard (180...900).contains(timeout) else {
            return send(Self.error(id, .invalidArguments, "timeout must be 180 to 900 s (Matter Core §11.19.8.1)"))
        }
        guard (args.option ?? 1) == 1, args.discriminator == nil, (args.iteration ?? 1000) == 1000
        else {
            return send(
                Self.error(
                    id, .invalidArguments,
                    "only the enhanced window (option 1) with the hub's own discriminator and 1000 iterations is built")
            )
        }
        let snapshot = engine.model.snapshot
        guard let record = snapshot.devices[nodeID]?.first else { return send(Self.unknownNode(id, nodeID)) }
        let device = SharedDevice(
            nodeID: nodeID, vendorID: record.node.vendorID, productID: record.node.productID,
            label: "\(record.name) (\(record.id))")
        work { [self] in
            do throws(HomeError) {
                let window = try await engine.perform(
                    OpenCommissioningWindow(device, seconds: UInt16(timeout)), caller: caller)
                guard let passcode = try? SetupPayload(parsing: window.manualCode).passcode else {
                    return send(
                        Self.error(id, .unknown, "the window's manual code does not parse: \(window.manualCode)"))
                }
                send(
                    Self.reply(
                        id,
                        JSONValue.object([
                            ("setup_pin_code", .unsigned(UInt64(passcode))),
                            ("setup_manual_code", .string(window.manualCode)),
                            ("setup_qr_code", .string(window.qrCode)),
                        ]).rendered))
            } catch {
                send(Self.error(id, MatterServerError(error)))
            }
        }
    }
}
