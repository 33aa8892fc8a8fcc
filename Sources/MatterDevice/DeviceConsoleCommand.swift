import Foundation

/// What `matter-device` takes on its standard input while it runs, one command a line: a bridge adds or removes a
/// bridged device by hand. The device prints what it did ("[bridge] added …"), as it prints everything it does.
public enum DeviceConsoleCommand: Hashable, Sendable {
    public static let help = """
        While it runs, standard input takes one command a line:
          add-bridged LABEL         a bridge adds a bridged On/Off Light called LABEL (1 to 32 bytes)
          remove-bridged ENDPOINT   a bridge removes the bridged device on ENDPOINT
        """

    case addBridged(label: String)
    case removeBridged(endpoint: UInt16)

    /// The command on `line`; nil for a blank line.
    public static func parse(_ line: String) throws(DeviceCommandLine.UsageError) -> DeviceConsoleCommand? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let name = trimmed.prefix { $0 != " " }
        let argument = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        switch name {
        case "add-bridged":
            guard !argument.isEmpty else {
                throw DeviceCommandLine.UsageError(description: "add-bridged needs a LABEL")
            }
            return .addBridged(label: argument)
        case "remove-bridged":
            guard let endpoint = UInt16(argument) else {
                throw DeviceCommandLine.UsageError(
                    description: "remove-bridged needs an ENDPOINT number, got '\(argument)'")
            }
            return .removeBridged(endpoint: endpoint)
        default:
            throw DeviceCommandLine.UsageError(
                description: "unknown command '\(name)' (commands: add-bridged LABEL, remove-bridged ENDPOINT)")
        }
    }

    public func run(on device: VirtualDevice) async throws(DeviceError) {
        switch self {
        case .addBridged(let label): _ = try await device.addBridgedDevice(label: label)
        case .removeBridged(let endpoint): try await device.removeBridgedDevice(endpoint: endpoint)
        }
    }
}
