import Foundation
import HomeEngine
import HubWire
import MatterPlatform

/// A handler that carries out each call in a separate helper executable (see `MatterAddDeviceHelper`), launched with
/// the app group both processes share. A helper's failure comes back as the `HomeError` it printed.
public struct MatterAddDeviceHelperProcess: MatterAddDeviceRequestHandler {
    public let executable: String
    public let appGroup: String
    /// The helper's environment: this process's, unless given (a test's own data directory, without `setenv`, which
    /// races with every process another thread launches).
    let environment: [String: String]?

    public init(executable: String, appGroup: String) {
        self.init(executable: executable, appGroup: appGroup, environment: nil)
    }

    init(executable: String, appGroup: String, environment: [String: String]?) {
        self.executable = executable
        self.appGroup = appGroup
        self.environment = environment
    }

    public func commissionDevice(
        in home: MatterAddDeviceRequest.Home, onboardingPayload: String, commissioningID: UUID
    ) async throws {
        _ = try await launch([
            MatterAddDeviceHelper.commission, "--app-group", appGroup, "--commissioning-id", commissioningID.uuidString,
            onboardingPayload,
        ])
    }

    public func rooms(in home: MatterAddDeviceRequest.Home) async throws -> [MatterAddDeviceRequest.Room] {
        try await launch([MatterAddDeviceHelper.rooms, "--app-group", appGroup])
            .split(separator: "\n").map { MatterAddDeviceRequest.Room(displayName: String($0)) }
    }

    public func configureDevice(named name: String, in room: MatterAddDeviceRequest.Room) async throws {
        _ = try await launch([
            MatterAddDeviceHelper.configure, "--app-group", appGroup, "--name", name, "--room", room.displayName,
        ])
    }

    /// Runs the helper to its end and returns its standard output.
    private func launch(_ arguments: [String]) async throws(HomeError) -> String {
        let helper: ChildProcess
        do {
            helper = try ChildProcess(
                executable: executable, arguments: arguments, environment: environment, standardOutput: .pipe,
                standardError: .pipe)
        } catch {
            throw HomeError(.failedPrecondition, "cannot launch the helper: \(error)")
        }
        // Read while it runs, so a full pipe cannot stall it.
        async let standardOutput = ChildProcess.readToEnd(helper.output!)
        async let standardError = ChildProcess.readToEnd(helper.errorOutput!)
        let (out, err) = await (standardOutput, standardError)
        let termination = await helper.termination()
        guard termination == .exited(0) else {
            let line = String(decoding: err, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            throw Self.error(fromHelperLine: line, termination: termination, call: arguments.first ?? "")
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `code: message`, as `HomeError.description` prints it; anything else is kept whole as an unknown error.
    static func error(fromHelperLine line: String, termination: ChildProcess.Termination, call: String) -> HomeError {
        if let colon = line.firstIndex(of: ":"), let code = HomeError.Code(rawValue: String(line[..<colon])) {
            return HomeError(code, String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        return HomeError(
            .unknown, "the helper's \(call) call \(termination)\(line.isEmpty ? "" : ": \(line)")")
    }
}
