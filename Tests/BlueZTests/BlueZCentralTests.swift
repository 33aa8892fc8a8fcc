import BlueZ
import Foundation
import HomeHub
import MatterBTP
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterTestSupport
import Synchronization
import Testing

/// The BlueZ central against a stand-in BlueZ (`bluez-standin.py`, on dbus-python) on a private bus these tests start:
/// discovery with the Matter filter, the device found by the discriminator in its service data, Connect and the
/// services resolving, the BTP handshake over C1 writes and C2 indications, a message reaching the peripheral whole,
/// and the device dropping the connection.
@Suite(.timeLimit(.minutes(1)), .serialized) struct BlueZCentralTests {
    /// A private bus with the stand-in on it, stopped when the test ends.
    final class StandIn: Sendable {
        let bus: DBusConnection
        private let processes: [ChildProcess]

        init() async throws {
            // Their standard error not the test's own: `swift test` waits for its output to end, which a child
            // holding it would stop.
            let daemon = try Self.privateBus()
            let address = try await Self.firstLine(of: daemon, from: "dbus-daemon")
            let standIn = try ChildProcess(
                executable: "/usr/bin/python3",
                arguments: [
                    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                        .appendingPathComponent("bluez-standin.py").path, "--discriminator", "3840",
                ],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"], standardOutput: .pipe)
            processes = [standIn, daemon]
            #expect(try await Self.firstLine(of: standIn, from: "the stand-in") == "ready")
            bus = try DBusConnection(address: address)
        }

        deinit {
            bus.close()
            for process in processes { process.send(SIGTERM) }
        }

        /// A D-Bus daemon of its own, its address the first line of its output.
        static func privateBus() throws -> ChildProcess {
            try ChildProcess(
                executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--nofork", "--print-address=1"],
                standardOutput: .pipe)
        }

        /// What the stand-in's peripheral received, message by message.
        func received() async throws -> [[UInt8]] {
            let reply = try await bus.call("org.bluez", "/", "org.swifthome.StandIn", "Received")
            guard case .array(_, let messages)? = reply.first else { return [] }
            return messages.compactMap(\.bytes)
        }

        /// The first line `process` writes.
        static func firstLine(of process: ChildProcess, from what: String) async throws -> String {
            let handle = try #require(process.output)
            // A blocking read: on a thread of its own, never a Dispatch global queue's (the cooperative pool's on Linux).
            let line = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                Thread.detachNewThread {
                    var bytes: [UInt8] = []
                    while true {
                        let chunk = handle.readData(ofLength: 1)
                        guard let byte = chunk.first else { return continuation.resume(returning: nil) }
                        if byte == 10 { return continuation.resume(returning: String(decoding: bytes, as: UTF8.self)) }
                        bytes.append(byte)
                    }
                }
            }
            guard let line else { throw DBusError(name: "test", message: "\(what) said nothing and ended") }
            return line
        }
    }

    /// The adapter powered off and on again, as BlueZ signals it: a watcher hears each change, and availability
    /// follows.
    @Test func theAdapterPoweredOffAndOnIsHeardAndAvailabilityFollows() async throws {
        let standIn = try await StandIn()
        let central = BlueZCentral(adapter: "hci0", bus: standIn.bus)
        #expect(await central.isAvailable)
        let heard = Mutex(0)
        let watch = try central.watchAvailability { heard.withLock { $0 += 1 } }
        defer { watch.cancel() }
        _ = try await standIn.bus.call("org.bluez", "/", "org.swifthome.StandIn", "SetPowered", [.bool(false)])
        #expect(await eventually(within: .seconds(10)) { heard.withLock { $0 } == 1 })
        #expect(await !central.isAvailable)
        _ = try await standIn.bus.call("org.bluez", "/", "org.swifthome.StandIn", "SetPowered", [.bool(true)])
        #expect(await eventually(within: .seconds(10)) { heard.withLock { $0 } == 2 })
        #expect(await central.isAvailable)
    }

    @Test func theDeviceIsFoundConnectedAndSpokenToOverBTP() async throws {
        let standIn = try await StandIn()
        let central = BlueZCentral(adapter: "hci0", bus: standIn.bus)
        #expect(await central.isAvailable)
        let found = try await central.find(matching: { $0.matches(longDiscriminator: 3840) }, timeout: .seconds(10))
        #expect(found.address == "02:00:00:00:0F:00")
        #expect(found.advertisement == MatterBLEAdvertisement(discriminator: 3840, vendorID: 0xFFF1, productID: 0x8000))
        #expect(found.name == "MATTER-3840" && found.rssi == -52)
        // Discovery was filtered to the Matter service on LE.
        let filters = try await standIn.bus.call("org.bluez", "/", "org.swifthome.StandIn", "Filters")
        let filter = try #require(
            filters.first.flatMap { value -> [String: DBusValue]? in
                if case .array(_, let items) = value { return items.first?.entries }
                return nil
            })
        #expect(filter["UUIDs"]?.strings == ["0000fff6-0000-1000-8000-00805f9b34fb"])
        #expect(filter["Transport"]?.string == "le")

        let transport = try MatterTransport()
        let btp = try await central.connect(found, transport: transport)
        // C1's MTU of 247 less the ATT header.
        #expect(await btp.segmentSize == 244)

        // PASE's first message goes out over BTP and reaches the peripheral whole.
        let pase = Task {
            try await SessionEstablishment.pase(with: .bluetooth(btp.connection), passcode: 20202021, over: transport)
        }
        #expect(await eventually(within: .seconds(20)) { ((try? await standIn.received()) ?? []).count == 1 })
        pase.cancel()
        let message = try #require(try await standIn.received().first)
        let decoded = try Message.decode(message)
        #expect(decoded.protocolHeader.protocolID == .secureChannel)
        #expect(decoded.protocolHeader.opcode == 0x20, "PBKDFParamRequest")

        // The device drops the connection: BTP ends, saying why.
        _ = try await standIn.bus.call("org.bluez", "/", "org.swifthome.StandIn", "DropConnection")
        #expect(await eventually(within: .seconds(20)) { await btp.ended != nil })
        #expect(await btp.ended == .linkLost("the peripheral disconnected"))
        await transport.shutdown()
    }

    @Test func anAdapterBlueZDoesNotHaveIsNamedWithTheOnesItHas() async throws {
        let standIn = try await StandIn()
        let central = BlueZCentral(adapter: "hci9", bus: standIn.bus)
        #expect(await !central.isAvailable)
        await #expect {
            try await central.find(matching: { _ in true }, timeout: .seconds(1))
        } throws: { error in
            guard case BluetoothError.unavailable(let reason) = error else { return false }
            return reason == "BlueZ has no adapter hci9 (it has hci0)"
        }
    }

    @Test func withNoBlueZOnTheBusFindingSaysSo() async throws {
        // A private bus where nobody owns org.bluez.
        let daemon = try StandIn.privateBus()
        defer { daemon.send(SIGTERM) }
        let bus = try DBusConnection(address: try await StandIn.firstLine(of: daemon, from: "dbus-daemon"))
        defer { bus.close() }
        let central = BlueZCentral(adapter: "hci0", bus: bus)
        await #expect {
            try await central.find(matching: { _ in true }, timeout: .seconds(1))
        } throws: { error in
            guard case BluetoothError.unavailable(let reason) = error else { return false }
            return reason.hasPrefix("BlueZ is not reachable over D-Bus")
        }
    }
}
