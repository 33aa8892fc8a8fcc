import MatterCrypto
import MatterNode
import MatterOnboarding

/// What the command line may fix about a device; nil leaves it to the stored state, or to a random or default value
/// on the first start.
public struct DeviceSettings: Hashable, Sendable {
    public var kind: DeviceKind?
    public var passcode: UInt32?
    public var discriminator: UInt16?
    public var iterations: UInt32?
    public var vendorID: UInt16?
    public var productID: UInt16?
    /// The software version it runs from its first start (an OTA update moves it on).
    public var softwareVersion: UInt32?

    public init(
        kind: DeviceKind? = nil, passcode: UInt32? = nil, discriminator: UInt16? = nil, iterations: UInt32? = nil,
        vendorID: UInt16? = nil, productID: UInt16? = nil, softwareVersion: UInt32? = nil
    ) {
        self.softwareVersion = softwareVersion
        self.kind = kind
        self.passcode = passcode
        self.discriminator = discriminator
        self.iterations = iterations
        self.vendorID = vendorID
        self.productID = productID
    }

    /// Checks the ranges the onboarding payload and PASE impose.
    public func validate() throws(DeviceError) {
        if let passcode {
            do {
                try Passcode.validate(passcode)
            } catch {
                throw .invalidSetting("--passcode: \(error)")
            }
        }
        if let discriminator, discriminator > 0xFFF {
            throw .invalidSetting("--discriminator must be 0 to 4095, got \(discriminator)")
        }
        if let iterations, !NodeConstants.pbkdfIterations.contains(iterations) {
            throw .invalidSetting(
                "--iterations must be \(NodeConstants.pbkdfIterations.lowerBound) to \(NodeConstants.pbkdfIterations.upperBound), got \(iterations)"
            )
        }
    }
}
