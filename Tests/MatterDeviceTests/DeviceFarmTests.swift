import Foundation
import MatterCertificates
import MatterDevice
import Testing

struct DeviceFarmTests {
    @Test func eachDeviceIsItsOwnNodeAndAllChainToTheFarmsOnePAA() async throws {
        try await withTemporaryDirectory { directory in
            let count = DeviceKind.allCases.count + 2
            let farm = try DeviceFarm.open(directory: directory, ports: Array(repeating: 0, count: count), kinds: .mix)
            defer { Task { await farm.shutdown() } }
            try await farm.start()
            // --mix cycles through every kind, then starts over.
            #expect(
                farm.setups.map(\.type)
                    == (0..<count).map { DeviceKind.allCases[$0 % DeviceKind.allCases.count].rawValue })
            #expect(farm.setups.map(\.index) == Array(0..<count))
            #expect(Set(farm.setups.map(\.port)).count == count)
            #expect(Set(farm.setups.map(\.qr)).count == count)
            #expect(farm.setups.map(\.state) == (0..<count).map { "\(directory)/\($0)/device.json" })
            // One PAA for all, a DAC each, and each DAC verifies under the shared PAI.
            #expect(Set(farm.devices.map(\.attestation.paa)).count == 1)
            #expect(Set(farm.devices.map(\.attestation.dac)).count == count)
            let pai = try X509Certificate(derEncoded: farm.devices[0].attestation.pai)
            for device in farm.devices {
                let dac = try X509Certificate(derEncoded: device.attestation.dac)
                #expect(dac.issuer == pai.subject)
                try dac.verifySignature(issuerPublicKey: pai.publicKey)
            }
            // The PAI's key signs new devices' DACs: the owner's only.
            var status = stat()
            #expect(stat(farm.issuerPath, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
        }
    }

    @Test func aRestartedFarmIsTheSameDevicesOnTheSamePorts() async throws {
        try await withTemporaryDirectory { directory in
            // Below the ephemeral range, so no other test's client socket takes a port between the two runs; above
            // ScaleTests' farm (22,000–27,000), which may run at the same time.
            let base = UInt16.random(in: 27_500...31_000)
            let first = try DeviceFarm.open(
                directory: directory, ports: [base, base + 1, base + 2], kinds: .one(.plug))
            try await first.start()
            await first.shutdown()
            let ports = first.setups.map(\.port)
            let again = try DeviceFarm.open(directory: directory, ports: ports, kinds: .one(.plug))
            try await again.start()
            await again.shutdown()
            #expect(again.setups == first.setups)
            // A fourth device added later chains to the same PAA as the first three.
            let grown = try DeviceFarm.open(directory: directory, ports: ports + [0], kinds: .one(.plug))
            #expect(Array(grown.setups.prefix(3)) == first.setups)
            #expect(Set(grown.devices.map(\.attestation.paa)).count == 1)
            // A stored device keeps its kind: asking for another is refused, naming the file.
            #expect(throws: DeviceError.self) {
                try DeviceFarm.open(directory: directory, ports: ports, kinds: .one(.fan))
            }
        }
    }

    @Test func settingsOfOneDeviceAreRefused() async throws {
        try await withTemporaryDirectory { directory in
            #expect(
                throws: DeviceError.invalidSetting(
                    "each device of a farm has its own passcode and discriminator: --count takes neither")
            ) {
                try DeviceFarm.open(
                    directory: directory, ports: [0], kinds: .mix, settings: DeviceSettings(passcode: 20202021))
            }
            #expect(throws: DeviceError.invalidSetting("a farm has at least one device")) {
                try DeviceFarm.open(directory: directory, ports: [], kinds: .mix)
            }
        }
    }
}
