import Foundation
import MatterNode

/// What `matter-device` takes on its standard input while it runs, one command a line: a bridge adds or removes a
/// bridged device by hand, a button is pressed, a contact opened or closed. The device prints what it did ("[bridge]
/// added …", "[switch-panel] button 2 pressed"), as it prints everything it does.
public enum DeviceConsoleCommand: Hashable, Sendable {
    public static let help = """
        While it runs, standard input takes one command a line:
          add-bridged LABEL         a bridge adds a bridged On/Off Light called LABEL (1 to 32 bytes)
          remove-bridged ENDPOINT   a bridge removes the bridged device on ENDPOINT
          press ENDPOINT            the button on ENDPOINT is pressed (released at the next simulation step)
          contact open|closed       the contact sensor's contact opens or closes
        """

    case addBridged(label: String)
    case removeBridged(endpoint: UInt16)
    case perform(DeviceAction, endpoint: UInt16?)

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
        case "press":
            guard let endpoint = UInt16(argument) else {
                throw DeviceCommandLine.UsageError(description: "press needs an ENDPOINT number, got '\(argument)'")
            }
            return .perform(.press, endpoint: endpoint)
        case "contact":
            guard argument == "open" || argument == "closed" else {
                throw DeviceCommandLine.UsageError(description: "contact is open or closed, got '\(argument)'")
            }
            return .perform(.contact(closed: argument == "closed"), endpoint: nil)
        default:
            throw DeviceCommandLine.UsageError(
                description:
                    "unknown command '\(name)' (commands: add-bridged LABEL, remove-bridged ENDPOINT, press ENDPOINT, "
                    + "contact open|closed)")
        }
    }

    public func run(on device: VirtualDevice) async throws(DeviceError) {
        switch self {
        case .addBridged(let label): _ = try await device.addBridgedDevice(label: label)
        case .removeBridged(let endpoint): try await device.removeBridgedDevice(endpoint: endpoint)
        case .perform(let action, let endpoint): try await device.perform(action, on: endpoint)
        }
    }
}
