import Foundation
import Glibc
import MatterCrypto
import MatterNode
import MatterPlatform

/// Many virtual devices in one process (`matter-device --count`): each its own node, with its own UDP port,
/// identity, passcode, fabrics and state file (`DIR/<i>/device.json`), all on the one event loop. They share one
/// development PAA and PAI (`DIR/issuer.json`), so a commissioner trusts one root for the whole farm. A farm does
/// not advertise by mDNS: its devices are commissioned and reached by address.
public struct DeviceFarm: Sendable {
    /// What each device of the farm is.
    public enum Kinds: Hashable, Sendable {
        case one(DeviceKind)
        /// Device `i` is `DeviceKind.allCases[i % count]`: lights, a plug, a fan, sensors, a switch panel, a bridge.
        case mix

        func kind(of index: Int) -> DeviceKind {
            switch self {
            case .one(let kind): kind
            case .mix: DeviceKind.allCases[index % DeviceKind.allCases.count]
            }
        }
    }

    public let directory: String
    public let devices: [VirtualDevice]
    /// Each device's setup data, in the farm's order.
    public let setups: [DeviceSetup]

    /// The issuer's file: its PAI key signs new devices' DACs, so it is the owner's only.
    public var issuerPath: String { directory + "/issuer.json" }

    /// The farm in `directory`, one device per port (0: ephemeral); a device stored there before keeps its state,
    /// and one not yet there is made from `settings` and `kinds` (settings that name one device, its passcode or
    /// discriminator, are refused: each device draws its own). `factoryReset` makes every device new.
    public static func open(
        directory: String, ports: [UInt16], kinds: Kinds, settings: DeviceSettings = DeviceSettings(),
        factoryReset: Bool = false, simulation: @autoclosure () -> Simulation = Simulation(),
        random: some RandomSource = SystemRandom(), log: @escaping @Sendable (Int, String) -> Void = { _, _ in }
    ) throws(DeviceError) -> DeviceFarm {
        guard !ports.isEmpty else { throw .invalidSetting("a farm has at least one device") }
        guard settings.passcode == nil, settings.discriminator == nil else {
            throw .invalidSetting("each device of a farm has its own passcode and discriminator: --count takes neither")
        }
        let issuer = try loadOrCreateIssuer(
            path: directory + "/issuer.json", vendorID: settings.vendorID ?? DeviceConstants.defaultVendorID,
            productID: settings.productID ?? DeviceConstants.defaultProductID, random: random)
        var devices: [VirtualDevice] = []
        var setups: [DeviceSetup] = []
        devices.reserveCapacity(ports.count)
        for (index, port) in ports.enumerated() {
            let store = DeviceStore(directory: "\(directory)/\(index)")
            if factoryReset { try store.factoryReset() }
            var device = settings
            device.kind = kinds.kind(of: index)
            let state = try store.loadOrCreate(device, issuer: issuer, random: random)
            let virtual = try VirtualDevice(
                store: store, state: state, port: port, random: random, simulation: simulation()
            ) { log(index, $0) }
            devices.append(virtual)
            setups.append(try DeviceSetup(virtual, state: state, store: store, index: index))
        }
        return DeviceFarm(directory: directory, devices: devices, setups: setups)
    }

    /// Starts every device; each hears its groups on `groupInterfaces`.
    public func start(groupInterfaces: [String] = []) async throws(DeviceError) {
        for device in devices {
            try await device.start()
            if !groupInterfaces.isEmpty { await device.useGroupInterfaces(groupInterfaces) }
        }
    }

    /// Stops every device: each withdraws nothing (a farm does not advertise) and closes its sockets.
    public func shutdown() async {
        await withTaskGroup(of: Void.self) { group in
            for device in devices { group.addTask { await device.shutdown() } }
        }
    }

    /// The farm's issuer, made on its first start and kept, so devices added later chain to the same PAA.
    private static func loadOrCreateIssuer(
        path: String, vendorID: UInt16, productID: UInt16, random: some RandomSource
    ) throws(DeviceError) -> DevelopmentAttestation.Issuer {
        if let data = FileManager.default.contents(atPath: path) {
            let issuer: DevelopmentAttestation.Issuer
            do {
                issuer = try JSONDecoder().decode(DevelopmentAttestation.Issuer.self, from: data)
            } catch {
                throw .state(path: path, reason: "not a farm's attestation issuer: \(error)")
            }
            guard issuer.vendorID == vendorID, issuer.productID == productID else {
                throw .state(
                    path: path,
                    reason:
                        "the farm's devices have --vendor-id \(issuer.vendorID) and --product-id \(issuer.productID), not \(vendorID) and \(productID)"
                )
            }
            return issuer
        }
        let issuer = try asDeviceError { () throws(NodeError) in
            try DevelopmentAttestation.Issuer.generate(vendorID: vendorID, productID: productID, random: random)
        }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let data = try JSONEncoder().encode(issuer)
            guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw DeviceError.state(path: path, reason: "cannot write") }
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .state(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
        return issuer
    }
}

/// What `matter-device` prints of a device as it starts, one JSON line (keys in snake case, sorted): what a script
/// or a person needs to commission it.
public struct DeviceSetup: Codable, Hashable, Sendable {
    public var passcode: UInt32
    public var discriminator: UInt16
    public var manualCode: String
    public var qr: String
    public var iterations: UInt32
    public var vendorID: UInt16
    public var productID: UInt16
    public var type: String
    public var port: UInt16
    public var state: String
    /// Where it advertises by mDNS (none: it is reached by address).
    public var interfaces: [String]
    /// The process it runs in (a farm's devices share one).
    public var pid: Int32
    /// The device's place in its farm; nil for a device on its own.
    public var index: Int?

    public init(
        _ device: VirtualDevice, state: DeviceStateFile, store: DeviceStore, interfaces: [String] = [],
        index: Int? = nil
    ) throws(DeviceError) {
        let payload = device.setupPayload
        do {
            manualCode = try payload.manualCode()
            qr = try payload.qrCode()
        } catch {
            throw .invalidSetting("the device's onboarding codes cannot be encoded: \(error)")
        }
        passcode = payload.passcode
        discriminator = state.discriminator
        iterations = state.iterations
        vendorID = state.identity.vendorID
        productID = state.identity.productID
        type = device.kind.rawValue
        port = device.port
        self.state = store.path
        self.interfaces = interfaces
        pid = getpid()
        self.index = index
    }

    /// The line as printed: keys sorted, slashes left alone.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and integers only: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    enum CodingKeys: String, CodingKey {
        case passcode, discriminator, qr, iterations, type, port, state, interfaces, pid, index
        case manualCode = "manual_code"
        case vendorID = "vendor_id"
        case productID = "product_id"
    }
}
