import Foundation
import HomeEngine
import HubWire

/// The helper-executable side of the add-device flow: one invocation per handler call, as
/// `MatterAddDeviceHelperProcess` launches it. A helper's `main` is one line:
///
///     exit(await MatterAddDeviceHelper.run(Array(CommandLine.arguments.dropFirst())) { appGroup in try MyHandler(appGroup: appGroup) })
///
/// Invocations (the app group is the one the app configured):
///   `commission --app-group GROUP --commissioning-id UUID PAYLOAD`
///   `rooms --app-group GROUP`                  prints one room name a line
///   `configure --app-group GROUP --name NAME --room ROOM`
/// A failure exits 1 with the `HomeError` on standard error as `code: message`.
public enum MatterAddDeviceHelper {
    static let commission = "commission"
    static let rooms = "rooms"
    static let configure = "configure"

    /// Runs one call and returns the exit status.
    public static func run(
        _ arguments: [String],
        handler makeHandler: (_ appGroup: String) async throws -> any MatterAddDeviceRequestHandler
    ) async -> Int32 {
        do {
            try await dispatch(arguments, makeHandler)
            return 0
        } catch let error as HomeError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
        } catch {
            FileHandle.standardError.write(Data((HomeError(.unknown, "\(error)").description + "\n").utf8))
        }
        return 1
    }

    private static func dispatch(
        _ arguments: [String], _ makeHandler: (String) async throws -> any MatterAddDeviceRequestHandler
    ) async throws {
        guard let call = arguments.first else { throw usage("no call given") }
        var options: [String: String] = [:]
        var positional: [String] = []
        var rest = arguments.dropFirst()[...]
        while let word = rest.popFirst() {
            if word.hasPrefix("--") {
                guard let value = rest.popFirst() else { throw usage("\(word) needs a value") }
                options[String(word.dropFirst(2))] = value
            } else {
                positional.append(word)
            }
        }
        guard let appGroup = options["app-group"] else { throw usage("missing --app-group") }
        let handler = try await makeHandler(appGroup)
        // The helper is told no home: the session the app prepared names the structure.
        let home = MatterAddDeviceRequest.Home(displayName: appGroup)
        switch call {
        case commission:
            guard let payload = positional.first, positional.count == 1 else {
                throw usage("commission takes one PAYLOAD")
            }
            guard let id = options["commissioning-id"].flatMap(UUID.init(uuidString:)) else {
                throw usage("missing or invalid --commissioning-id")
            }
            try await handler.commissionDevice(in: home, onboardingPayload: payload, commissioningID: id)
        case rooms:
            let names = try await handler.rooms(in: home).map(\.displayName)
            FileHandle.standardOutput.write(Data(names.map { $0 + "\n" }.joined().utf8))
        case configure:
            guard let name = options["name"], let room = options["room"] else {
                throw usage("configure needs --name and --room")
            }
            try await handler.configureDevice(named: name, in: .init(displayName: room))
        default:
            throw usage("unknown call \"\(call)\"")
        }
    }

    private static func usage(_ problem: String) -> HomeError {
        HomeError(.invalidArgument, "helper: \(problem) (calls: commission, rooms, configure)")
    }
}
