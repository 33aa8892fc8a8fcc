import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Core §11.21.7 OTA Software Update Requestor cluster, server, on the root endpoint of a virtual device: where
// its providers are (DefaultOTAProviders, one per fabric), where an update stands (UpdateState and its progress, with
// a StateTransition event for each change), and AnnounceOTAProvider, which has the device ask that provider for an
// update (`OTARequestor` does the asking, downloading and applying).
public struct OTARequestorServer: ClusterServer {
    public typealias Cluster = OtaSoftwareUpdateRequestorCluster
    public typealias ProviderLocation = Cluster.ProviderLocation

    public private(set) var defaultProviders: [ProviderLocation] = []
    public private(set) var updateState: Cluster.UpdateStateEnum = .idle
    public private(set) var progress: UInt8?

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Cluster.Attributes.defaultOTAProviders),
                AttributeDescription(Cluster.Attributes.updatePossible),
                AttributeDescription(Cluster.Attributes.updateState),
                AttributeDescription(Cluster.Attributes.updateStateProgress),
            ],
            acceptedCommands: [CommandDescription(Cluster.Commands.AnnounceOTAProvider.self)],
            events: [
                Cluster.Events.StateTransition.id.rawValue, Cluster.Events.VersionApplied.id.rawValue,
                Cluster.Events.DownloadError.id.rawValue,
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Cluster.Attributes.defaultOTAProviders.id.rawValue:
            .success(
                .array(
                    defaultProviders.filter {
                        !request.isFabricFiltered || $0.fabricIndex == request.context.fabricIndex
                    }.map { TLVElement($0.tlvValue()) }))
        case Cluster.Attributes.updatePossible.id.rawValue: .success(.bool(true))
        case Cluster.Attributes.updateState.id.rawValue: .success(.unsigned(UInt64(updateState.rawValue)))
        case Cluster.Attributes.updateStateProgress.id.rawValue:
            .success(progress.map { .unsigned(UInt64($0)) } ?? .null)
        default: .failure(.unsupportedAttribute)
        }
    }

    /// §11.21.7.5.1: the list is fabric-scoped; a write replaces the writer's fabric's entries, of which there may be
    /// one.
    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard attribute == Cluster.Attributes.defaultOTAProviders.id.rawValue else { return .unsupportedWrite }
        guard case .array(let elements) = value.value,
            let written = try? elements.map({ try ProviderLocation(tlv: $0) })
        else { return .invalidDataType }
        guard written.count <= 1 else { return .constraintError }
        let fabricIndex = request.context.fabricIndex
        defaultProviders =
            defaultProviders.filter { $0.fabricIndex != fabricIndex }
            + written.map {
                ProviderLocation(providerNodeID: $0.providerNodeID, endpoint: $0.endpoint, fabricIndex: fabricIndex)
            }
        node.markChanged(
            endpoint: 0, cluster: id, attributes: [Cluster.Attributes.defaultOTAProviders.id.rawValue])
        node.effects.append(.persist)
        return .success
    }

    /// §11.21.7.6.1: the provider is asked at once; an announcement while an update is under way is heard and ignored.
    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        guard command == Cluster.Commands.AnnounceOTAProvider.id.rawValue else { return .status(.unsupportedCommand) }
        guard let announcement = Cluster.Commands.AnnounceOTAProvider.decode(fields) else {
            return .status(.invalidCommand)
        }
        guard announcement.metadataForNode.map({ $0.count <= 512 }) ?? true else { return .status(.constraintError) }
        if updateState == .idle {
            node.effects.append(
                .updateAnnounced(
                    providerNodeID: announcement.providerNodeID, fabricIndex: request.context.fabricIndex,
                    endpoint: announcement.endpoint))
        }
        return .success
    }

    public var persistentState: TLVValue? {
        .array(defaultProviders.map { TLVElement($0.tlvValue()) })
    }

    public mutating func restore(_ state: TLVElement) {
        guard case .array(let elements) = state.value else { return }
        defaultProviders = elements.compactMap { try? ProviderLocation(tlv: $0) }
    }

    /// The update moved on (§11.21.7.4.2): the new state and progress, and a StateTransition event when the state
    /// changed.
    mutating func transition(
        to state: Cluster.UpdateStateEnum, reason: Cluster.ChangeReasonEnum, target: UInt32?, progress: UInt8? = nil,
        in node: inout NodeState
    ) {
        let previous = updateState
        updateState = state
        let changedProgress = self.progress != progress
        self.progress = progress
        var changed: [UInt32] = []
        if previous != state {
            changed.append(Cluster.Attributes.updateState.id.rawValue)
            node.record(
                Cluster.Events.StateTransition(
                    previousState: previous, newState: state, reason: reason, targetSoftwareVersion: Nullable(target)),
                endpoint: 0)
        }
        if changedProgress { changed.append(Cluster.Attributes.updateStateProgress.id.rawValue) }
        if !changed.isEmpty { node.markChanged(endpoint: 0, cluster: id, attributes: changed) }
    }
}
