import Foundation
import HomeRecords
import MatterCrypto
import MatterDataModel
import MatterOnboarding

/// Matter Core §11.19.8.1 OpenCommissioningWindow, the Enhanced Commissioning Method: what the hub asks a node to
/// open so another ecosystem can join it, and the code it gives that ecosystem. The passcode is fresh and random
/// (never one of §5.1.7.1's forbidden ones), the discriminator and salt random, and the SPAKE2+ verifier is computed
/// here: the node never learns the passcode, and nothing but the printed code carries it.
public struct EnhancedCommissioningWindow: Sendable {
    /// §11.19.8.1.1: an enhanced window stays open 3 to 15 minutes (the device refuses other values).
    public static let timeoutRange: ClosedRange<UInt16> = 180...900
    /// §5.1.1.6 / §3.9: PBKDF2 iterations from 1,000 to 100,000; the fewest, as connectedhomeip's controller uses, since
    /// the window is short-lived and the passcode random.
    public static let iterations: UInt32 = 1_000
    /// §3.9: a 16- to 32-byte salt; the longest.
    public static let saltLength = 32

    public let passcode: UInt32
    public let discriminator: UInt16
    public let salt: [UInt8]
    public let verifier: Spake2PlusVerifierData
    public let timeoutSeconds: UInt16
    /// The code for the other ecosystem, with the node's vendor and product.
    public let payload: SetupPayload

    /// Draws the window's secrets; `timeoutSeconds` must be within `timeoutRange` (the caller checks and says so).
    public init(
        timeoutSeconds: UInt16, vendorID: UInt16, productID: UInt16, random: some RandomSource = SystemRandom()
    ) throws {
        var passcode: UInt32
        repeat {
            let draw = random.bytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            passcode = draw % 99_999_998 + 1
        } while Passcode.forbidden.contains(passcode)
        let discriminatorBytes = random.bytes(2)
        let discriminator = (UInt16(discriminatorBytes[0]) << 8 | UInt16(discriminatorBytes[1])) & 0x0FFF
        let salt = random.bytes(Self.saltLength)
        self.passcode = passcode
        self.discriminator = discriminator
        self.salt = salt
        self.timeoutSeconds = timeoutSeconds
        verifier = try Spake2Plus.verifierData(passcode: passcode, salt: salt, iterations: Int(Self.iterations))
        payload = SetupPayload(
            vendorID: vendorID, productID: productID, discoveryCapabilities: .onNetwork,
            discriminator: .long(discriminator), passcode: passcode)
    }

    /// The command that opens it (a timed invoke, as the cluster requires).
    public var command: AdministratorCommissioningCluster.Commands.OpenCommissioningWindow {
        .init(
            commissioningTimeout: timeoutSeconds, pakePasscodeVerifier: verifier.serialized,
            discriminator: discriminator, iterations: Self.iterations, salt: salt)
    }
}
