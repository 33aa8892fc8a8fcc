import BLEProxy
import Foundation
import MatterBTP
import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

/// The hub's central and virtual peripherals joined in memory, each side's frames reaching the other in order, on a
/// manual clock: what the hub asks, what each proxy answers, and how the hub treats proxies that vanish.
@Suite(.timeLimit(.minutes(1))) struct BLEProxyCentralTests {
    static let advertisement = MatterBLEAdvertisement(discriminator: 3840, vendorID: 0xFFF1, productID: 0x8000)

    /// One proxy client: a virtual peripheral, or a bare script a test writes frames for.
    final class Proxy: Sendable {
        let id: BLEProxyCentral.ClientID
        let peripheral: BLEProxyPeripheral?
        /// What the hub sent it, in order; and whether the hub pinged or closed it.
        let fromHub = Mutex<[BLEProxyFrame]>([])
        let pings = Mutex(0)
        let closedBecause = Mutex<String?>(nil)

        init(id: BLEProxyCentral.ClientID, peripheral: BLEProxyPeripheral?) {
            self.id = id
            self.peripheral = peripheral
        }

        var commands: [String] {
            fromHub.withLock { $0 }.compactMap { frame in
                if case .text(let text) = frame, let (_, command) = BLEProxyCommand.decode(text) {
                    return "\(command)".prefix { $0 != "(" }.description
                }
                return nil
            }
        }
    }

    final class Harness: Sendable {
        let clock = ManualClock()
        let network: ClockedNetwork
        let central: BLEProxyCentral
        let advertising = Mutex(true)
        /// The proxies' host vanished: nothing they send reaches the hub any more.
        let silenced = Mutex(false)

        init() {
            network = ClockedNetwork(clock: clock, seed: 1)
            central = BLEProxyCentral(clock: clock)
        }

        /// A virtual peripheral at `address` connected as a proxy client, its hello said.
        func peripheral(_ address: String, transport: MatterTransport) async -> Proxy {
            let (toPeripheral, intoPeripheral) = AsyncStream<BLEProxyFrame>.makeStream()
            let (toCentral, intoCentral) = AsyncStream<BLEProxyFrame>.makeStream()
            let box = Mutex<Proxy?>(nil)
            let id = await central.connected(
                .init(
                    send: { frame in
                        box.withLock { $0 }?.fromHub.withLock { $0.append(frame) }
                        intoPeripheral.yield(frame)
                    }, ping: { box.withLock { $0 }?.pings.withLock { $0 += 1 } },
                    close: { reason in
                        box.withLock { $0 }?.closedBecause.withLock { $0 = reason }
                        intoCentral.finish()
                    }))
            let peripheral = BLEProxyPeripheral(
                address: address, transport: transport,
                advertisement: { [self] in advertising.withLock { $0 } ? BLEProxyCentralTests.advertisement : nil },
                send: { [self] frame in if !silenced.withLock({ $0 }) { intoCentral.yield(frame) } })
            let proxy = Proxy(id: id, peripheral: peripheral)
            box.withLock { $0 = proxy }
            let central = central
            Task { for await frame in toPeripheral { await peripheral.received(frame) } }
            Task {
                for await frame in toCentral { await central.received(frame, from: id) }
                await central.closed(id)
            }
            await peripheral.start()
            #expect(await eventually(within: .seconds(30)) { await peripheral.isGreeted })
            return proxy
        }
    }

    @Test func theHubFindsADeviceByItsDiscriminatorConnectsAndHandshakesBTPThroughTheProxy() async throws {
        let harness = Harness()
        let proxy = await harness.peripheral("02:00:00:00:0F:00", transport: harness.network.transport())
        let found = try await harness.central.find(
            matching: { $0.matches(longDiscriminator: 3840) }, timeout: .seconds(30))
        #expect(found.address == "02:00:00:00:0F:00" && found.advertisement == Self.advertisement)

        let btp = try await harness.central.connect(found, transport: harness.network.transport())
        #expect(await btp.segmentSize == 244)
        #expect(await proxy.peripheral?.isConnected == true)
        #expect(
            proxy.commands == [
                "startScan", "stopScan", "connect", "discoverServices", "discoverCharacteristics", "writeAndSubscribe",
            ])

        // The commissioner letting go of the link disconnects the peripheral through the proxy.
        await btp.close()
        #expect(await eventually(within: .seconds(30)) { await proxy.peripheral?.isConnected == false })
        #expect(proxy.commands.last == "disconnect")
    }

    @Test func aDeviceNotAdvertisingIsNotFoundInTimeAndTheScanStops() async throws {
        let harness = Harness()
        harness.advertising.withLock { $0 = false }
        let proxy = await harness.peripheral("02:00:00:00:0F:00", transport: harness.network.transport())
        let finding = Task { try await harness.central.find(matching: { _ in true }, timeout: .seconds(30)) }
        #expect(await eventually(within: .seconds(30)) { proxy.commands == ["startScan"] })
        harness.clock.advance(by: .seconds(30))
        await #expect(throws: BluetoothError.self) { try await finding.value }
        #expect(await eventually(within: .seconds(30)) { proxy.commands == ["startScan", "stopScan"] })
    }

    @Test func withNoProxyConnectedFindingSaysSo() async {
        let central = BLEProxyCentral(clock: ManualClock())
        await #expect {
            try await central.find(matching: { _ in true }, timeout: .seconds(1))
        } throws: { error in
            guard case BluetoothError.unavailable(let reason) = error else { return false }
            return reason.contains("/ble")
        }
    }

    @Test func aProxyThatGoesSilentIsPingedThenDroppedAndItsLinkEnds() async throws {
        let harness = Harness()
        let proxy = await harness.peripheral("02:00:00:00:0F:00", transport: harness.network.transport())
        let found = try await harness.central.find(matching: { _ in true }, timeout: .seconds(30))
        let btp = try await harness.central.connect(found, transport: harness.network.transport())

        // Its host vanishes: nothing from it reaches the hub any more. Pinged at each beat while its silence is
        // within BLEProxyTiming.silence (three beats), dropped at the first beat past it.
        harness.silenced.withLock { $0 = true }
        for beat in 1...3 {
            harness.clock.advance(by: BLEProxyTiming.ping)
            #expect(await eventually(within: .seconds(30)) { proxy.pings.withLock { $0 } == beat })
            #expect(proxy.closedBecause.withLock { $0 } == nil, "silent \(beat * 15) s, within the limit")
        }
        harness.clock.advance(by: BLEProxyTiming.ping)
        #expect(await eventually(within: .seconds(30)) { proxy.closedBecause.withLock { $0 } != nil })
        #expect(proxy.closedBecause.withLock { $0 }?.contains("silent for more than") == true)
        #expect(await eventually(within: .seconds(30)) { await harness.central.readyClients == 0 })
        await #expect(throws: (any Error).self) { try await btp.connected() }
    }

    /// A proxy on a slow link answers each ping late, after the next ping went out, but never 45 s late: it stays;
    /// one that says nothing for more than 45 s goes.
    @Test func aProxyWhosePongsComeLateButWithinTheSilenceLimitStays() async throws {
        let clock = ManualClock()
        let central = BLEProxyCentral(clock: clock)
        func client() async -> Proxy {
            let box = Mutex<Proxy?>(nil)
            let id = await central.connected(
                .init(
                    send: { _ in }, ping: { box.withLock { $0 }?.pings.withLock { $0 += 1 } },
                    close: { reason in box.withLock { $0 }?.closedBecause.withLock { $0 = reason } }))
            let proxy = Proxy(id: id, peripheral: nil)
            box.withLock { $0 = proxy }
            await central.received(.text(#"{"type": "hello", "version": 1}"#), from: id)
            return proxy
        }
        let late = await client()
        let silent = await client()
        #expect(await central.readyClients == 2)
        // Beats at 15, 30, 45, 60, 75 and 90 s; the late one is heard at 44 s (29 s after the first ping, past the
        // second) and at 88 s (43 s after its last word).
        let heardAt: Set<Int> = [44, 88]
        var now = 0
        for beat in 1...6 {
            let at = beat * 15
            for second in (now + 1)...at {
                clock.advance(to: .zero + .seconds(second))
                if heardAt.contains(second) { await central.heard(late.id) }
            }
            now = at
            #expect(await eventually(within: .seconds(30)) { late.pings.withLock { $0 } == beat }, "beat at \(at) s")
            #expect(late.closedBecause.withLock { $0 } == nil, "the late proxy was dropped by the beat at \(at) s")
            if at <= 45 {
                #expect(silent.closedBecause.withLock { $0 } == nil, "silent \(at) s is within the limit")
            }
        }
        #expect(silent.closedBecause.withLock { $0 }?.contains("silent for more than 45") == true)
        await central.closed(silent.id)
        #expect(await central.readyClients == 1)
    }

    /// Proxies report whatever advertises near them, and rotating addresses: the central keeps at most
    /// `BLEProxyTiming.peripherals`, forgetting the one reported longest ago.
    @Test func thePeripheralsKeptAreBoundedAndTheStalestIsForgotten() async throws {
        let clock = ManualClock()
        let central = BLEProxyCentral(clock: clock)
        let scansAsked = Mutex(0)
        let id = await central.connected(
            .init(
                send: { frame in
                    guard case .text(let text) = frame, let (_, command) = BLEProxyCommand.decode(text),
                        case .startScan = command
                    else { return }
                    scansAsked.withLock { $0 += 1 }
                }, ping: {}, close: { _ in }))
        await central.received(.text(#"{"type": "hello", "version": 1}"#), from: id)
        func report(_ index: Int) async {
            let advertisement = MatterBLEAdvertisement(
                discriminator: UInt16(index), vendorID: 0xFFF1, productID: 0x8000)
            let data = Data(advertisement.serviceData).base64EncodedString()
            let address = String(format: "02:00:00:00:%02X:%02X", index >> 8, index & 0xFF)
            await central.received(
                .text(
                    #"{"event": "device_discovered", "data": {"address": "\#(address)", "connectable": true, "service_data": {"0000FFF6-0000-1000-8000-00805F9B34FB": "\#(data)"}}}"#
                ), from: id)
            clock.advance(by: .seconds(1))
        }
        let bound = BLEProxyTiming.peripherals
        for index in 0..<bound { await report(index) }
        #expect(await central.knownPeripherals == bound)
        await report(0)  // heard again: now the freshest
        await report(bound)  // one more: the stalest (1) is forgotten
        #expect(await central.knownPeripherals == bound)
        for kept in [0, 2, bound] {
            let found = try await central.find(matching: { $0.discriminator == UInt16(kept) }, timeout: .seconds(1))
            #expect(found.advertisement.discriminator == UInt16(kept))
        }
        // The forgotten one is looked for afresh (a scan), and not found within its time.
        #expect(scansAsked.withLock { $0 } == 0, "the kept ones were found without a scan")
        let forgotten = Task { try await central.find(matching: { $0.discriminator == 1 }, timeout: .seconds(1)) }
        #expect(await eventually(within: .seconds(30)) { scansAsked.withLock { $0 } == 1 })
        clock.advance(by: .seconds(2))
        await #expect(throws: BluetoothError.self) { try await forgotten.value }
    }

    @Test func aClientThatNeverSaysHelloIsClosedAfterTenSeconds() async {
        let clock = ManualClock()
        let central = BLEProxyCentral(clock: clock)
        let closed = Mutex<String?>(nil)
        _ = await central.connected(
            .init(send: { _ in }, ping: {}, close: { reason in closed.withLock { $0 = reason } }))
        clock.advance(by: .seconds(9))
        #expect(closed.withLock { $0 } == nil)
        clock.advance(by: .seconds(1))
        #expect(await eventually(within: .seconds(30)) { closed.withLock { $0 } != nil })
    }

    @Test func anotherVersionIsAnsweredWithTheErrorAndClosed() async throws {
        let central = BLEProxyCentral(clock: ManualClock())
        let sent = Mutex<[BLEProxyFrame]>([]), closed = Mutex<String?>(nil)
        let id = await central.connected(
            .init(
                send: { frame in sent.withLock { $0.append(frame) } }, ping: {},
                close: { reason in closed.withLock { $0 = reason } }))
        await central.received(.text(#"{"type": "hello", "version": 2}"#), from: id)
        let answer = try #require(sent.withLock { $0 }.first)
        guard case .text(let text) = answer else {
            Issue.record("not text")
            return
        }
        #expect(text.contains(#""error":"unsupported_version""#))
        #expect(text.contains("client sent version 2"))
        #expect(closed.withLock { $0 } != nil)
        #expect(await central.readyClients == 0)
    }

    @Test func aPeripheralBelongsToTheFirstProxyThatReportedItAndPassesToAnotherWhenThatOneGoes() async throws {
        let harness = Harness()
        let first = await harness.peripheral("02:00:00:00:0F:00", transport: harness.network.transport())
        let second = await harness.peripheral("02:00:00:00:0F:00", transport: harness.network.transport())
        let found = try await harness.central.find(matching: { _ in true }, timeout: .seconds(30))
        // Both scanned (the scan goes to every client); the first to report owns the address.
        #expect(first.commands.first == "startScan" && second.commands.first == "startScan")
        #expect(await eventually(within: .seconds(30)) { second.commands.contains("stopScan") })
        _ = try await harness.central.connect(found, transport: harness.network.transport())
        let owner = first.commands.contains("connect") ? first : second
        let other = owner === first ? second : first
        #expect(!other.commands.contains("connect"))

        // The owner vanishes: the next connection goes through the other proxy that saw the device.
        await harness.central.closed(owner.id)
        _ = try await harness.central.connect(found, transport: harness.network.transport())
        #expect(other.commands.contains("connect"))
    }

    /// A proxy client scripted from the document's own sequence (not our peripheral): UUIDs in the 128-bit and
    /// compact forms other proxies send, the BTP handshake response indicated before `write_and_subscribe` is
    /// answered, then the peripheral disconnecting on its own.
    @Test func aScriptedProxyIsDrivenThroughTheDocumentsSequenceAndAPeripheralThatDropsEndsTheLink() async throws {
        let clock = ManualClock()
        let central = BLEProxyCentral(clock: clock)
        let (sent, send) = AsyncStream<BLEProxyFrame>.makeStream()
        let id = await central.connected(.init(send: { send.yield($0) }, ping: {}, close: { _ in }))
        await central.received(.text(#"{"type": "hello", "version": 1}"#), from: id)
        let asked = Mutex<[String]>([])
        let handshakeMTU = Mutex<Int?>(nil)
        let script = Task {
            for await frame in sent {
                guard case .text(let text) = frame, let (commandID, command) = BLEProxyCommand.decode(text) else {
                    continue
                }
                asked.withLock { $0.append(String("\(command)".prefix { $0 != "(" })) }
                func answer(_ result: String) async {
                    await central.received(
                        .text(#"{"id": \#(commandID), "success": true, "result": \#(result)}"#), from: id)
                }
                switch command {
                case .startScan:
                    await answer("{}")
                    let data = Data(BLEProxyCentralTests.advertisement.serviceData).base64EncodedString()
                    await central.received(
                        .text(
                            #"{"event": "device_discovered", "data": {"address": "AA:BB:CC:DD:EE:FF", "connectable": true, "service_data": {"0000FFF6-0000-1000-8000-00805F9B34FB": "\#(data)"}}}"#
                        ), from: id)
                case .stopScan: await answer("{}")
                case .connect: await answer(#"{"connection_handle": 7, "mtu": 185}"#)
                case .discoverServices:
                    await answer(#"{"services": [{"uuid": "0000FFF6-0000-1000-8000-00805F9B34FB"}]}"#)
                case .discoverCharacteristics:
                    await answer(
                        #"{"characteristics": [{"uuid": "18ee2ef5263d4559959f4f9c429f9d11", "properties": ["write"]}, {"uuid": "18ee2ef5263d4559959f4f9c429f9d12", "properties": ["indicate"]}]}"#
                    )
                case .writeAndSubscribe(let handle, _, let value, let withResponse, _):
                    #expect(handle == 7 && withResponse)
                    // The capabilities request (§4.19.4.2): its ATT MTU at bytes 6 and 7.
                    handshakeMTU.withLock { $0 = value.count >= 9 ? Int(value[6]) | Int(value[7]) << 8 : nil }
                    let response: [UInt8] = [0x65, 0x6C, 0x04, 182, 0x00, 0x06]
                    await central.received(
                        .binary(BLEProxyBinaryFrame(.notification, connectionHandle: 7, payload: response).bytes),
                        from: id)
                    await answer("{}")
                default: await answer("{}")
                }
            }
        }
        let found = try await central.find(matching: { $0.matches(shortDiscriminator: 15) }, timeout: .seconds(10))
        #expect(found.address == "AA:BB:CC:DD:EE:FF")
        let network = ClockedNetwork(clock: clock, seed: 2)
        let transport = network.transport()
        let btp = try await central.connect(found, transport: transport)
        #expect(await btp.segmentSize == 182)
        #expect(handshakeMTU.withLock { $0 } == 185)
        #expect(
            asked.withLock { $0 } == [
                "startScan", "stopScan", "connect", "discoverServices", "discoverCharacteristics", "writeAndSubscribe",
            ])
        await central.received(
            .text(#"{"event": "disconnected", "data": {"connection_handle": 7, "reason": "supervision timeout"}}"#),
            from: id)
        #expect(await btp.ended == .linkLost("the peripheral disconnected (supervision timeout)"))
        script.cancel()
        send.finish()
        withExtendedLifetime(network) {}
    }
}
