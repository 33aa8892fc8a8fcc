import Foundation
import HomeRecords
import HubWire

/// One thing a hub does for whoever asks (a rename, an invoke, a step of adding a device): its arguments are the
/// type's stored properties, `Reply` what it answers, `access` who may ask. This process's own `Home` runs it on its
/// engine; a client sends it over the hub's socket by `name`, and the hub runs it the same way (`HubOperations`).
/// The home itself is read from the model, which a client mirrors; what the model does not hold (the hub's status, a
/// node's fabrics) is read by an operation.
///
/// A new operation is a type conforming here, in a file of its own under `Operations/`, and its line in
/// `HubOperations.all`.
public protocol HubOperation: Codable, Sendable {
    associatedtype Reply: Codable & Sendable
    /// What the socket calls it; unique among the hub's operations.
    static var name: String { get }
    /// Who may ask, checked before it runs.
    var access: HubAccess { get }
    /// What it is, for messages: "rename a room", "invoke On".
    var summary: String { get }
    /// Carries it out; `scope` exists only once `access` has been checked.
    func run(in scope: HubOperationScope) async throws(HomeError) -> Reply
}

/// What an operation runs with: the engine, who asked, and where its progress goes. Made only by the engine, after
/// the operation's access was checked, so no caller runs an operation past its check.
public struct HubOperationScope: Sendable {
    let engine: HubEngine
    let caller: HubCaller
    let progress: @Sendable (HubProgress) -> Void
}

/// An operation's reply when it has nothing to say but that it is done.
public struct Done: Codable, Sendable, Hashable {
    public init() {}
}

extension HubEngine {
    /// Carries out `operation` for this process itself (its own `Home`, `home serve`): the caller is this process's
    /// user.
    public func perform<Operation: HubOperation>(
        _ operation: Operation, progress: @escaping @Sendable (HubProgress) -> Void = { _ in }
    ) async throws(HomeError) -> Operation.Reply {
        try await perform(
            operation, caller: HubCaller(uid: commissioning.callerUID, process: ProcessIdentity.current()),
            progress: progress)
    }

    /// Carries out `operation` for `caller` (a client of the socket, the Matter-server API), once its access allows.
    public func perform<Operation: HubOperation>(
        _ operation: Operation, caller: HubCaller, progress: @escaping @Sendable (HubProgress) -> Void = { _ in }
    ) async throws(HomeError) -> Operation.Reply {
        try await check(operation.access, of: operation.summary, for: caller)
        return try await operation.run(in: HubOperationScope(engine: self, caller: caller, progress: progress))
    }
}

/// Every operation the hub's socket serves, by name: what a client's request is decoded into.
enum HubOperations {
    static let all: [any HubOperation.Type] = [
        RenameDevice.self, RenameRoom.self, RenameStructure.self, CreateRoom.self, DeleteRoom.self, MoveDevices.self,
        FollowNode.self, InvokeCommand.self, ReinterviewNode.self, WriteAttribute.self, ToggleOnOff.self,
        ReadHubStatus.self, ReadNodeEndpoints.self, CommissionDevice.self, PingNode.self,
        PrepareCommissioning.self, CommissionInSession.self, ConfigureCommissioned.self,
        CompleteCommissioning.self, CancelCommissioning.self, SetCommissioningGrant.self,
        CheckCommissioningPermission.self, Decommission.self,
        OpenCommissioningWindow.self, OpenBasicCommissioningWindow.self, RevokeCommissioningWindow.self,
        ReadCommissioningWindowStatus.self, ReadFabrics.self, RemoveFabric.self, GroupCommand.self,
        CreateGroup.self, ChangeGroup.self, DeleteGroup.self, SetNetworkCredentials.self, RemoveNetworkCredentials.self,
        ReadNetworkCredentials.self,
        ReadUpdates.self, AddUpdateImage.self, UpdateDevice.self, FetchUpdates.self, ManageCheckIns.self,
        RefreshNetworkDiagnostics.self,
    ]

    /// A client's request, decoded: what it is for messages, and its work.
    struct Request: Sendable {
        let summary: String
        /// Runs it for the caller; the reply as JSON.
        let run:
            @Sendable (
                _ engine: HubEngine, _ caller: HubCaller, _ progress: @escaping @Sendable (HubProgress) -> Void
            ) async throws(HomeError) -> UntypedJSON
    }

    private typealias Decoder = @Sendable (_ arguments: UntypedJSON) throws(HomeError) -> Request

    private static let decoders: [String: Decoder] = Dictionary(
        all.map { ($0.name, decoder(for: $0)) }, uniquingKeysWith: { first, _ in first })

    /// How many names the registry answers to: one per operation, when the names are unique.
    static var registeredNames: Int { decoders.count }

    /// The request a client sent: its arguments decoded as the named operation's. An operation this hub does not
    /// have is `unimplemented`, arguments that are not its own `invalidArgument`, each naming it.
    static func request(_ name: String, arguments: UntypedJSON) throws(HomeError) -> Request {
        guard let decoder = decoders[name] else {
            throw HomeError(.unimplemented, "this hub has no operation \"\(name)\"")
        }
        return try decoder(arguments)
    }

    private static func decoder<Operation: HubOperation>(for type: Operation.Type) -> Decoder {
        { arguments throws(HomeError) in
            let operation: Operation
            do {
                operation = try arguments.decode(as: Operation.self)
            } catch {
                throw HomeError(.invalidArgument, "the arguments of \(Operation.name) do not decode: \(error)")
            }
            return Request(summary: operation.summary) { engine, caller, progress async throws(HomeError) in
                let reply = try await engine.perform(operation, caller: caller, progress: progress)
                do {
                    return try UntypedJSON(encoding: reply)
                } catch {
                    throw HomeError(.internal, "the reply of \(Operation.name) does not encode: \(error)")
                }
            }
        }
    }
}
