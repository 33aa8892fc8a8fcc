import Foundation
import HomeEngine
import HubWire

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in continuation.finish() }
        }
        do {
            try process.run()
        } catch {
            throw HomeError(.failedPrecondition, "cannot launch the helper \(executable): \(error)")
        }
        // Read while it runs, so a full pipe cannot stall it.
        async let standardOutput = Self.readToEnd(output.fileHandleForReading)
        async let standardError = Self.readToEnd(errors.fileHandleForReading)
        let (out, err) = await (standardOutput, standardError)
        for await _ in exited {}
        guard process.terminationStatus == 0 else {
            let line = String(decoding: err, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            throw Self.error(fromHelperLine: line, status: process.terminationStatus, call: arguments.first ?? "")
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads on a thread outside Swift concurrency's small pool, which a blocking read would starve.
    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }

    /// `code: message`, as `HomeError.description` prints it; anything else is kept whole as an unknown error.
    static func error(fromHelperLine line: String, status: Int32, call: String) -> HomeError {
        if let colon = line.firstIndex(of: ":"), let code = HomeError.Code(rawValue: String(line[..<colon])) {
            return HomeError(code, String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        return HomeError(
            .unknown, "the helper's \(call) call exited with status \(status)\(line.isEmpty ? "" : ": \(line)")")
    }
}
