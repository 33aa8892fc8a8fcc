import Foundation
import Glibc
import MatterCrypto
import MatterNode
import MatterOnboarding
import MatterPlatform

/// The state file of one device in its state directory (`device.json`, mode 0600).
public struct DeviceStore: Sendable {
    public let directory: String
    public var path: String { directory + "/device.json" }

    public init(directory: String) {
        self.directory = directory
    }

    /// Deletes the state: the next start is a new device (new attestation chain, no fabrics).
    public func factoryReset() throws(DeviceError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw .state(path: path, reason: "cannot delete: \(error.localizedDescription)")
        }
    }

    public func load() throws(DeviceError) -> DeviceStateFile? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let state: DeviceStateFile
        do {
            state = try JSONDecoder().decode(DeviceStateFile.self, from: data)
        } catch {
            throw .state(path: path, reason: "not a device state file: \(error)")
        }
        guard state.format == DeviceStateFile.formatVersion else {
            throw .state(
                path: path, reason: "format \(state.format), this build reads format \(DeviceStateFile.formatVersion)")
        }
        return state
    }

    /// Every device's writes, one after another, off the event loop: a device's work runs there (its tasks prefer
    /// the loop), and the loop must not wait on a file.
    private static let writes = DispatchQueue(label: "swift-home.device-state")

    /// Writes atomically (a temporary file renamed over the old one), readable by the owner only; returns once the
    /// file is in place. Writes are made in the order they are asked for.
    public func save(_ state: DeviceStateFile) async throws(DeviceError) {
        try await Self.writes.perform { () throws(DeviceError) in try write(state) }
    }

    private func write(_ state: DeviceStateFile) throws(DeviceError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let data = try encoder.encode(state)
            let temporary = path + ".tmp"
            guard
                FileManager.default.createFile(
                    atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
            else {
                throw DeviceError.state(path: temporary, reason: "cannot write")
            }
            guard rename(temporary, path) == 0 else {
                throw DeviceError.state(path: path, reason: "cannot replace: errno \(errno)")
            }
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .state(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// The stored device, whose factory data the settings may only repeat; or a new device made from the settings,
    /// its DAC issued by `issuer` when given (a farm's devices share one PAA), else by a chain of its own.
    public func loadOrCreate(
        _ settings: DeviceSettings, issuer: DevelopmentAttestation.Issuer? = nil,
        random: some RandomSource = SystemRandom()
    ) throws(DeviceError) -> DeviceStateFile {
        try settings.validate()
        if let existing = try load() {
            try Self.check(settings, against: existing, path: path)
            return existing
        }
        let kind = settings.kind ?? .light
        let vendorID = settings.vendorID ?? DeviceConstants.defaultVendorID
        let productID = settings.productID ?? DeviceConstants.defaultProductID
        let passcode = settings.passcode ?? Self.randomPasscode(random)
        let iterations = settings.iterations ?? NodeConstants.pbkdfIterations.lowerBound
        let salt = random.bytes(NodeConstants.pbkdfSaltLength.upperBound)
        let verifier: Spake2PlusVerifierData
        do {
            verifier = try Spake2Plus.verifierData(passcode: passcode, salt: salt, iterations: Int(iterations))
        } catch {
            throw .invalidSetting("cannot compute the passcode verifier: \(error)")
        }
        let deviceType = kind.primaryDeviceType.id.rawValue
        if let issuer, issuer.vendorID != vendorID || issuer.productID != productID {
            throw .invalidSetting(
                "the attestation issuer is for vendor \(issuer.vendorID) product \(issuer.productID), not \(vendorID) and \(productID)"
            )
        }
        let attestation = try asDeviceError { () throws(NodeError) in
            if let issuer {
                try issuer.attest(deviceType: deviceType, random: random)
            } else {
                try DevelopmentAttestation.generate(
                    vendorID: vendorID, productID: productID, deviceType: deviceType, random: random)
            }
        }
        let serial = random.bytes(8).map { String($0, radix: 16, uppercase: true).leftPadded(2) }.joined()
        let state = DeviceStateFile(
            format: DeviceStateFile.formatVersion, kind: kind.rawValue, passcode: passcode,
            discriminator: settings.discriminator ?? UInt16(random.bytes(2).reduce(0) { $0 << 8 | UInt16($1) } & 0xFFF),
            iterations: iterations, salt: Data(salt), verifier: Data(verifier.serialized),
            identity: NodeIdentity(
                vendorID: vendorID, productID: productID, productName: kind.productName, serialNumber: serial,
                uniqueID: random.bytes(16).map { String($0, radix: 16, uppercase: true).leftPadded(2) }.joined(),
                softwareVersion: settings.softwareVersion ?? 1,
                softwareVersionString: "\(settings.softwareVersion ?? 1).0"),
            paa: Data(attestation.paa), pai: Data(attestation.pai), dac: Data(attestation.dac),
            dacKey: Data(attestation.dacKey),
            certificationDeclaration: Data(attestation.certificationDeclaration), fabrics: [], clusters: [:],
            rebootCount: 0)
        try write(state)
        return state
    }

    /// A stored device keeps its factory data: a setting that contradicts it is a mistake worth stopping for.
    private static func check(
        _ settings: DeviceSettings, against state: DeviceStateFile, path: String
    ) throws(DeviceError) {
        let conflicts: [(String, String?, String)] = [
            ("--type", settings.kind?.rawValue, state.kind),
            ("--passcode", settings.passcode.map(String.init), String(state.passcode)),
            ("--discriminator", settings.discriminator.map(String.init), String(state.discriminator)),
            ("--iterations", settings.iterations.map(String.init), String(state.iterations)),
            ("--vendor-id", settings.vendorID.map(String.init), String(state.identity.vendorID)),
            ("--product-id", settings.productID.map(String.init), String(state.identity.productID)),
        ]
        for (option, asked, stored) in conflicts {
            if let asked, asked != stored {
                throw .state(path: path, reason: "the stored device has \(option) \(stored), not \(asked)")
            }
        }
        // A later version than asked is an update applied since the first start: the device runs what it has.
        if let asked = settings.softwareVersion, asked > state.identity.softwareVersion {
            throw .state(
                path: path,
                reason:
                    "the stored device runs software version \(state.identity.softwareVersion), older than --software-version \(asked)"
            )
        }
    }

    /// §5.1.7.1: a passcode from 1 to 99999998 that is not one of the forbidden trivial values.
    private static func randomPasscode(_ random: some RandomSource) -> UInt32 {
        var candidate = random.bytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 99_999_998 + 1
        // Stepping past a forbidden value ends: only a dozen values are forbidden.
        while (try? Passcode.validate(candidate)) == nil {
            candidate = candidate % 99_999_998 + 1
        }
        return candidate
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
