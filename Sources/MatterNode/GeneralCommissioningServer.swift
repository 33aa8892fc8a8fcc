import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterTLV

// Matter Core §11.10 General Commissioning cluster, server: the fail-safe, the breadcrumb, regulatory config and
// CommissioningComplete, which keeps what was done under the fail-safe.
public struct GeneralCommissioningServer: ClusterServer {
    private typealias Cluster = GeneralCommissioningCluster
    private typealias Error = GeneralCommissioningCluster.CommissioningErrorEnum

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Cluster.Attributes.breadcrumb),
                AttributeDescription(Cluster.Attributes.basicCommissioningInfo),
                AttributeDescription(Cluster.Attributes.regulatoryConfig),
                AttributeDescription(Cluster.Attributes.locationCapability),
                AttributeDescription(Cluster.Attributes.supportsConcurrentConnection),
            ],
            acceptedCommands: [
                CommandDescription(Cluster.Commands.ArmFailSafe.self),
                CommandDescription(Cluster.Commands.SetRegulatoryConfig.self),
                CommandDescription(Cluster.Commands.CommissioningComplete.self),
            ],
            generatedCommands: [
                Cluster.Commands.ArmFailSafeResponse.id.rawValue,
                Cluster.Commands.SetRegulatoryConfigResponse.id.rawValue,
                Cluster.Commands.CommissioningCompleteResponse.id.rawValue,
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Cluster.Attributes.breadcrumb.id.rawValue: .success(.unsigned(node.breadcrumb))
        case Cluster.Attributes.basicCommissioningInfo.id.rawValue:
            .success(
                Cluster.BasicCommissioningInfo(
                    failSafeExpiryLengthSeconds: NodeConstants.failSafeExpiryLengthSeconds,
                    maxCumulativeFailsafeSeconds: NodeConstants.maxCumulativeFailsafeSeconds
                ).tlvValue())
        case Cluster.Attributes.regulatoryConfig.id.rawValue: .success(.unsigned(UInt64(node.regulatoryConfig)))
        // An IP device works indoors and outdoors.
        case Cluster.Attributes.locationCapability.id.rawValue:
            .success(.unsigned(UInt64(Cluster.RegulatoryLocationTypeEnum.indoorOutdoor.rawValue)))
        case Cluster.Attributes.supportsConcurrentConnection.id.rawValue: .success(.bool(true))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard attribute == Cluster.Attributes.breadcrumb.id.rawValue else { return .unsupportedWrite }
        guard let breadcrumb = try? UInt64(tlv: value) else { return .invalidDataType }
        node.breadcrumb = breadcrumb
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [attribute])
        return .success
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        switch command {
        case Cluster.Commands.ArmFailSafe.id.rawValue:
            guard let arm = Cluster.Commands.ArmFailSafe.decode(fields) else { return .status(.invalidCommand) }
            return armFailSafe(arm, in: &node, request: request)
        case Cluster.Commands.SetRegulatoryConfig.id.rawValue:
            guard let config = Cluster.Commands.SetRegulatoryConfig.decode(fields) else {
                return .status(.invalidCommand)
            }
            guard config.newRegulatoryConfig.rawValue <= Cluster.RegulatoryLocationTypeEnum.indoorOutdoor.rawValue,
                config.countryCode.utf8.count == 2
            else {
                return Cluster.Commands.SetRegulatoryConfigResponse(
                    errorCode: .valueOutsideRange, debugText: "unknown location or country code"
                ).outcome
            }
            node.regulatoryConfig = config.newRegulatoryConfig.rawValue
            setBreadcrumb(config.breadcrumb, in: &node, endpoint: request.endpoint)
            node.markChanged(
                endpoint: request.endpoint, cluster: id, attributes: [Cluster.Attributes.regulatoryConfig.id.rawValue])
            return Cluster.Commands.SetRegulatoryConfigResponse(errorCode: .ok, debugText: "").outcome
        case Cluster.Commands.CommissioningComplete.id.rawValue:
            return commissioningComplete(in: &node, request: request)
        default:
            return .status(.unsupportedCommand)
        }
    }

    /// §11.10.7.2: arms, extends or (expiry 0) expires the fail-safe; only the fabric that armed it may touch it.
    private func armFailSafe(
        _ arm: Cluster.Commands.ArmFailSafe, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        typealias Response = Cluster.Commands.ArmFailSafeResponse
        // An administrator's commissioning window belongs to whoever commissions over PASE (§11.19.8.1).
        if let window = node.commissioningWindow, window.kind != .initial, request.context.authMode != .pase {
            return Response(errorCode: .busyWithOtherAdmin, debugText: "a commissioning window is open").outcome
        }
        if let failSafe = node.failSafe, failSafe.fabricIndex != request.context.fabricIndex {
            return Response(
                errorCode: .busyWithOtherAdmin, debugText: "the fail-safe is armed by fabric \(failSafe.fabricIndex)"
            ).outcome
        }
        if arm.expiryLengthSeconds == 0 {
            node.expireFailSafe()
            return Response(errorCode: .ok, debugText: "").outcome
        }
        let requested = node.now + .seconds(Int(arm.expiryLengthSeconds))
        if var failSafe = node.failSafe {
            failSafe.deadline = min(requested, failSafe.cumulativeLimit)
            node.failSafe = failSafe
        } else {
            node.failSafe = FailSafe(
                deadline: requested,
                cumulativeLimit: node.now + .seconds(Int(NodeConstants.maxCumulativeFailsafeSeconds)),
                fabricIndex: request.context.fabricIndex, fabricsBefore: node.fabrics)
            node.effects.append(.log("[commissioning] fail-safe armed for \(arm.expiryLengthSeconds) s"))
        }
        setBreadcrumb(arm.breadcrumb, in: &node, endpoint: request.endpoint)
        return Response(errorCode: .ok, debugText: "").outcome
    }

    /// §11.10.7.6: over CASE on the fabric AddNOC created (or the fabric that armed), under the fail-safe.
    private func commissioningComplete(in node: inout NodeState, request: ClusterRequest) -> CommandOutcome {
        typealias Response = Cluster.Commands.CommissioningCompleteResponse
        guard let failSafe = node.failSafe else {
            return Response(errorCode: .noFailSafe, debugText: "no fail-safe is armed").outcome
        }
        guard request.context.authMode == .case else {
            return Response(errorCode: .invalidAuthentication, debugText: "CommissioningComplete needs a CASE session")
                .outcome
        }
        guard request.context.fabricIndex == (failSafe.addedFabric ?? failSafe.updatedFabric ?? failSafe.fabricIndex)
        else {
            return Response(errorCode: .invalidAuthentication, debugText: "the fail-safe belongs to another fabric")
                .outcome
        }
        node.failSafe = nil
        node.signals.append((endpoint: 0, signal: .failSafeEnded(committed: true)))
        setBreadcrumb(0, in: &node, endpoint: request.endpoint)
        node.closeCommissioningWindow()
        node.effects += [
            .persist, .advertise, .log("[commissioning] complete on fabric \(request.context.fabricIndex)"),
        ]
        return Response(errorCode: .ok, debugText: "").outcome
    }

    private func setBreadcrumb(_ value: UInt64, in node: inout NodeState, endpoint: UInt16) {
        guard node.breadcrumb != value else { return }
        node.breadcrumb = value
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Cluster.Attributes.breadcrumb.id.rawValue])
    }
}
