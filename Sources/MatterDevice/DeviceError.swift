import MatterNode

/// Why the device could not start, load its state or accept credentials; each says what to do about it.
public enum DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Certificates or keys that do not form a usable fabric.
    case invalidCredentials(String)
    /// The state file could not be read or written.
    case state(path: String, reason: String)
    /// A setting out of its allowed range.
    case invalidSetting(String)
    /// The sockets or the mDNS responder could not be set up.
    case network(String)
    /// A bridged device could not be added or removed: the device is not a bridge, or the endpoint is no bridged device.
    case bridging(String)

    public var description: String {
        switch self {
        case .invalidCredentials(let reason): "invalid operational credentials: \(reason)"
        case .state(let path, let reason): "device state \(path): \(reason) (use --factory-reset to start over)"
        case .invalidSetting(let reason): reason
        case .network(let reason): "network: \(reason)"
        case .bridging(let reason): "bridge: \(reason)"
        }
    }
}

extension DeviceError {
    /// What the node could not do, said as the device's error.
    public init(_ error: NodeError) {
        switch error {
        case .invalidCredentials(let reason): self = .invalidCredentials(reason)
        case .network(let reason): self = .network(reason)
        case .protocolTaken, .unknownFabric, .noGroupKey, .storage: self = .invalidSetting(error.description)
        }
    }
}

/// Runs `body`, saying what the node refused as the device's error.
func asDeviceError<T>(_ body: () throws(NodeError) -> T) throws(DeviceError) -> T {
    do {
        return try body()
    } catch {
        throw DeviceError(error)
    }
}
