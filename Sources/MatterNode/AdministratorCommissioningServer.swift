import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterTLV

// Matter Core §11.19 Administrator Commissioning cluster, server: an administrator opens a commissioning window
// (with a verifier of its own, or the onboarding passcode) so that another controller can join; or revokes it.
public struct AdministratorCommissioningServer: ClusterServer {
    private typealias Cluster = AdministratorCommissioningCluster
    private typealias Commands = AdministratorCommissioningCluster.Commands

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision, featureMap: Cluster.Feature.basic.rawValue,
            attributes: [
                AttributeDescription(Cluster.Attributes.windowStatus),
                AttributeDescription(Cluster.Attributes.adminFabricIndex),
                AttributeDescription(Cluster.Attributes.adminVendorId),
            ],
            acceptedCommands: [
                CommandDescription(Commands.OpenCommissioningWindow.self),
                CommandDescription(Commands.OpenBasicCommissioningWindow.self),
                CommandDescription(Commands.RevokeCommissioning.self),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        let window = node.commissioningWindow
        switch attribute {
        case Cluster.Attributes.windowStatus.id.rawValue:
            let status: Cluster.CommissioningWindowStatusEnum =
                switch window?.kind {
                case nil: .windowNotOpen
                case .enhanced?: .enhancedWindowOpen
                case .basic?, .initial?: .basicWindowOpen
                }
            return .success(.unsigned(UInt64(status.rawValue)))
        case Cluster.Attributes.adminFabricIndex.id.rawValue:
            return .success(window?.adminFabricIndex.map { .unsigned(UInt64($0)) } ?? .null)
        case Cluster.Attributes.adminVendorId.id.rawValue:
            return .success(window?.adminVendorID.map { .unsigned(UInt64($0)) } ?? .null)
        default:
            return .failure(.unsupportedAttribute)
        }
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        switch command {
        case Commands.OpenCommissioningWindow.id.rawValue:
            guard let open = Commands.OpenCommissioningWindow.decode(fields) else { return .status(.invalidCommand) }
            guard open.pakePasscodeVerifier.count == NodeConstants.verifierLength,
                NodeConstants.pbkdfIterations.contains(open.iterations),
                NodeConstants.pbkdfSaltLength.contains(open.salt.count),
                let verifier = try? Spake2PlusVerifierData(serialized: open.pakePasscodeVerifier)
            else {
                return .status(.failure, clusterStatus: Cluster.StatusCode.pakeParameterError.rawValue)
            }
            guard open.discriminator <= 0xFFF else { return .status(.invalidCommand) }
            return openWindow(
                .enhanced, verifier: verifier, iterations: open.iterations, salt: open.salt,
                discriminator: open.discriminator,
                timeout: open.commissioningTimeout, in: &node, request: request)
        case Commands.OpenBasicCommissioningWindow.id.rawValue:
            guard let open = Commands.OpenBasicCommissioningWindow.decode(fields) else {
                return .status(.invalidCommand)
            }
            guard let onboarding = node.commissionable?.onboardingWindow else { return .status(.unsupportedCommand) }
            return openWindow(
                .basic, verifier: onboarding.verifier, iterations: onboarding.iterations, salt: onboarding.salt,
                discriminator: onboarding.discriminator, timeout: open.commissioningTimeout, in: &node, request: request
            )
        case Commands.RevokeCommissioning.id.rawValue:
            guard node.commissioningWindow != nil else {
                return .status(.failure, clusterStatus: Cluster.StatusCode.windowNotOpen.rawValue)
            }
            node.closeCommissioningWindow()
            node.expireFailSafe()
            node.effects.append(.log("[commissioning] window revoked"))
            return .success
        default:
            return .status(.unsupportedCommand)
        }
    }

    /// §11.19.8.1: only while no window is open and no fail-safe is armed; the window closes after `timeout`.
    private func openWindow(
        _ kind: CommissioningWindow.Kind, verifier: Spake2PlusVerifierData, iterations: UInt32, salt: [UInt8],
        discriminator: UInt16, timeout: UInt16, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        guard let fabric = node.fabric(request.context.fabricIndex) else { return .status(.unsupportedAccess) }
        guard node.commissioningWindow == nil, node.failSafe == nil else {
            return .status(.failure, clusterStatus: Cluster.StatusCode.busy.rawValue)
        }
        guard NodeConstants.commissioningTimeoutSeconds.contains(timeout) else { return .status(.invalidCommand) }
        var window = CommissioningWindow(
            kind: kind, verifier: verifier, iterations: iterations, salt: salt, discriminator: discriminator,
            deadline: node.now + .seconds(Int(timeout)))
        window.adminFabricIndex = fabric.index
        window.adminVendorID = fabric.vendorID
        node.commissioningWindow = window
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [0, 1, 2])
        node.effects += [
            .advertise,
            .log(
                "[commissioning] \(kind == .enhanced ? "enhanced" : "basic") window open for \(timeout) s, discriminator \(discriminator)"
            ),
        ]
        return .success
    }
}
