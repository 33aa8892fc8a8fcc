import MatterMessaging
import MatterTLV

// Matter Core §8.8.2 and §8.7.2 (invokes and writes sent to a group), §4.16 (group messages are never answered):
// each command or attribute applies to every endpoint of the group that has the cluster and grants the group access
// (auth mode Group, the group ID as subject); an endpoint that lacks it, or a request of another kind, is skipped in
// silence: nothing goes back.
/// What a group request did: the paths it acted on, and the ones it skipped and why.
public struct GroupRequestOutcome: Hashable, Sendable {
    /// "cluster 0x0006 command 0x0002 on endpoint 1", one per endpoint it ran on.
    public var acted: [String] = []
    /// The same, with the status an answer would have carried.
    public var skipped: [Skipped] = []

    public struct Skipped: Hashable, Sendable {
        public var path: String
        public var status: InteractionModelStatus

        public init(path: String, status: InteractionModelStatus) {
            self.path = path
            self.status = status
        }
    }
}

extension InteractionServer {
    /// An Interaction Model message a group member received for the group whose member endpoints are `endpoints`;
    /// `context` is the group's (auth mode Group, the group ID as subject, the fabric the key belongs to).
    /// Only invokes and writes may be sent to a group.
    public mutating func handleGroupRequest(
        opcode rawOpcode: UInt8, payload: [UInt8], endpoints: [UInt16], context: AccessContext, now: Instant
    ) -> GroupRequestOutcome {
        switch InteractionModelOpcode(rawValue: rawOpcode) {
        case .invokeRequest?:
            guard let request = try? GroupInvokeRequest(payload: payload) else {
                return GroupRequestOutcome(skipped: [.init(path: "a malformed group invoke", status: .invalidAction)])
            }
            return groupInvoke(request, endpoints: endpoints, context: context)
        case .writeRequest?:
            guard let request = try? WriteRequestMessage(payload: payload) else {
                return GroupRequestOutcome(skipped: [.init(path: "a malformed group write", status: .invalidAction)])
            }
            return groupWrite(request, endpoints: endpoints, context: context)
        default:
            return GroupRequestOutcome(skipped: [
                .init(path: "Interaction Model opcode \(rawOpcode) to a group", status: .invalidAction)
            ])
        }
    }

    private mutating func groupInvoke(
        _ request: GroupInvokeRequest, endpoints: [UInt16], context: AccessContext
    ) -> GroupRequestOutcome {
        var outcome = GroupRequestOutcome()
        for command in request.commands {
            for endpoint in endpoints {
                let path = CommandPathIB(endpoint: endpoint, cluster: command.cluster, command: command.command)
                guard case .success(let cluster) = lookUp(endpoint: endpoint, cluster: command.cluster),
                    let description = cluster.acceptedCommands.first(where: { $0.id == command.command })
                else { continue }
                let clusterPath = ConcreteClusterPath(endpoint: endpoint, cluster: command.cluster)
                guard
                    provider.isAllowed(
                        AccessRequest(cluster: clusterPath, privilege: description.privilege), for: context)
                else {
                    outcome.skipped.append(.init(path: path.description, status: .unsupportedAccess))
                    continue
                }
                // A timed command needs a TimedRequest first, which a group cannot send.
                guard !description.requiresTimedInvoke else {
                    outcome.skipped.append(.init(path: path.description, status: .needsTimedInteraction))
                    continue
                }
                switch provider.invoke(path, fields: command.fields, context: context) {
                case .success, .response: outcome.acted.append(path.description)
                case .status(let status, _): outcome.skipped.append(.init(path: path.description, status: status))
                }
            }
        }
        return outcome
    }

    private mutating func groupWrite(
        _ request: WriteRequestMessage, endpoints: [UInt16], context: AccessContext
    ) -> GroupRequestOutcome {
        var outcome = GroupRequestOutcome()
        var written: [ConcreteAttributePath] = []
        for data in request.writeRequests {
            // A group write names the cluster and attribute, never the endpoint (§8.7.2).
            guard data.path.endpoint == nil, let cluster = data.path.cluster, let attributeID = data.path.attribute,
                data.path.listIndex == nil
            else {
                outcome.skipped.append(.init(path: "\(data.path) in a group write", status: .invalidAction))
                continue
            }
            for endpoint in endpoints {
                let path = ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attributeID)
                guard case .success((_, let attribute)) = lookUp(path), let privilege = attribute.writePrivilege else {
                    continue
                }
                guard provider.isAllowed(AccessRequest(cluster: path.clusterPath, privilege: privilege), for: context)
                else {
                    outcome.skipped.append(.init(path: "\(path)", status: .unsupportedAccess))
                    continue
                }
                guard !attribute.requiresTimedWrite else {
                    outcome.skipped.append(.init(path: "\(path)", status: .needsTimedInteraction))
                    continue
                }
                let status = provider.write(path, value: data.data, context: context)
                if status == .success {
                    written.append(path)
                    outcome.acted.append("\(path)")
                } else {
                    outcome.skipped.append(.init(path: "\(path)", status: status))
                }
            }
        }
        markChanged(written)
        return outcome
    }
}
