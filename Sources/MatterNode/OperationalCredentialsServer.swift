import MatterCertificates
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §11.18 Node Operational Credentials cluster, server: attestation, the CSR, the trusted root, AddNOC,
// UpdateNOC, RemoveFabric and the fabric-scoped Fabrics and NOCs lists.
public struct OperationalCredentialsServer: ClusterServer {
    private typealias Cluster = OperationalCredentialsCluster
    private typealias Commands = OperationalCredentialsCluster.Commands
    private typealias NOCResponse = OperationalCredentialsCluster.Commands.NOCResponse

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Cluster.Attributes.nocs), AttributeDescription(Cluster.Attributes.fabrics),
                AttributeDescription(Cluster.Attributes.supportedFabrics),
                AttributeDescription(Cluster.Attributes.commissionedFabrics),
                AttributeDescription(Cluster.Attributes.trustedRootCertificates),
                AttributeDescription(Cluster.Attributes.currentFabricIndex),
            ],
            acceptedCommands: [
                CommandDescription(Commands.AttestationRequest.self),
                CommandDescription(Commands.CertificateChainRequest.self),
                CommandDescription(Commands.CSRRequest.self), CommandDescription(Commands.AddNOC.self),
                CommandDescription(Commands.UpdateNOC.self),
                CommandDescription(Commands.UpdateFabricLabel.self), CommandDescription(Commands.RemoveFabric.self),
                CommandDescription(Commands.AddTrustedRootCertificate.self),
            ],
            generatedCommands: [
                Commands.AttestationResponse.id.rawValue, Commands.CertificateChainResponse.id.rawValue,
                Commands.CSRResponse.id.rawValue, Commands.NOCResponse.id.rawValue,
            ])
    }

    // MARK: Attributes

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        let accessing = request.context.fabricIndex
        let listed = node.fabrics.filter { !request.isFabricFiltered || $0.index == accessing }
        switch attribute {
        case Cluster.Attributes.nocs.id.rawValue:
            // §11.18.5.1: NOC and ICAC are fabric-sensitive: other fabrics' entries carry only their index.
            return .success(
                .array(
                    listed.map { fabric in
                        let entry =
                            fabric.index == accessing
                            ? Cluster.NOCStruct(noc: fabric.noc, icac: Nullable(fabric.icac), fabricIndex: fabric.index)
                                .tlvValue()
                            : .structure([TLVElement(tag: .context(254), .unsigned(UInt64(fabric.index)))])
                        return TLVElement(entry)
                    }))
        case Cluster.Attributes.fabrics.id.rawValue:
            return .success(
                .array(
                    listed.map { fabric in
                        TLVElement(
                            Cluster.FabricDescriptorStruct(
                                rootPublicKey: fabric.rootPublicKey, vendorID: fabric.vendorID,
                                fabricID: fabric.fabricID,
                                nodeID: fabric.nodeID, label: fabric.label, fabricIndex: fabric.index
                            ).tlvValue())
                    }))
        case Cluster.Attributes.supportedFabrics.id.rawValue:
            return .success(.unsigned(UInt64(NodeConstants.supportedFabrics)))
        case Cluster.Attributes.commissionedFabrics.id.rawValue:
            return .success(.unsigned(UInt64(node.fabrics.count)))
        case Cluster.Attributes.trustedRootCertificates.id.rawValue:
            let roots = node.fabrics.map(\.rootCertificate) + (node.failSafe?.pendingRoot.map { [$0] } ?? [])
            return .success(.array(roots.map { TLVElement(.bytes($0)) }))
        case Cluster.Attributes.currentFabricIndex.id.rawValue:
            return .success(.unsigned(UInt64(accessing)))
        default:
            return .failure(.unsupportedAttribute)
        }
    }

    // MARK: Commands

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        switch command {
        case Commands.AttestationRequest.id.rawValue:
            guard let attestation = Commands.AttestationRequest.decode(fields),
                attestation.attestationNonce.count == NodeConstants.nonceLength
            else { return .status(.invalidCommand) }
            guard let session = node.session,
                let response = try? node.commissionable?.attestation.attestationResponse(
                    nonce: attestation.attestationNonce, challenge: session.attestationChallenge)
            else { return .status(.failure) }
            return Commands.AttestationResponse(
                attestationElements: response.elements, attestationSignature: response.signature
            ).outcome
        case Commands.CertificateChainRequest.id.rawValue:
            guard let chain = Commands.CertificateChainRequest.decode(fields) else { return .status(.invalidCommand) }
            guard let attestation = node.commissionable?.attestation else { return .status(.failure) }
            switch chain.certificateType {
            case .dacCertificate: return Commands.CertificateChainResponse(certificate: attestation.dac).outcome
            case .paiCertificate: return Commands.CertificateChainResponse(certificate: attestation.pai).outcome
            default: return .status(.invalidCommand)
            }
        case Commands.CSRRequest.id.rawValue:
            guard let csr = Commands.CSRRequest.decode(fields), csr.csrNonce.count == NodeConstants.nonceLength else {
                return .status(.invalidCommand)
            }
            return certificateSigningRequest(csr, in: &node)
        case Commands.AddTrustedRootCertificate.id.rawValue:
            guard let root = Commands.AddTrustedRootCertificate.decode(fields) else { return .status(.invalidCommand) }
            return addTrustedRoot(root.rootCACertificate, in: &node)
        case Commands.AddNOC.id.rawValue:
            guard let add = Commands.AddNOC.decode(fields) else { return .status(.invalidCommand) }
            return addNOC(add, in: &node, request: request)
        case Commands.UpdateNOC.id.rawValue:
            guard let update = Commands.UpdateNOC.decode(fields) else { return .status(.invalidCommand) }
            return updateNOC(update, in: &node, request: request)
        case Commands.UpdateFabricLabel.id.rawValue:
            guard let update = Commands.UpdateFabricLabel.decode(fields) else { return .status(.invalidCommand) }
            return updateLabel(update.label, in: &node, request: request)
        case Commands.RemoveFabric.id.rawValue:
            guard let remove = Commands.RemoveFabric.decode(fields) else { return .status(.invalidCommand) }
            return removeFabric(remove.fabricIndex, in: &node)
        default:
            return .status(.unsupportedCommand)
        }
    }

    /// §11.18.6.5: a new operational key pair, kept with the fail-safe until AddNOC or UpdateNOC uses it.
    private func certificateSigningRequest(_ csr: Commands.CSRRequest, in node: inout NodeState) -> CommandOutcome {
        guard var failSafe = node.failSafe else { return .status(.failsafeRequired) }
        guard failSafe.addedFabric == nil, failSafe.updatedFabric == nil else { return .status(.constraintError) }
        let key = P256.PrivateKey(using: node.random)
        guard let session = node.session,
            let response = try? node.commissionable?.attestation.csrResponse(
                operationalKey: key, nonce: csr.csrNonce, challenge: session.attestationChallenge)
        else { return .status(.failure) }
        failSafe.pendingKey = key
        failSafe.pendingKeyIsForUpdate = csr.isForUpdateNOC ?? false
        node.failSafe = failSafe
        return Commands.CSRResponse(nocsrElements: response.elements, attestationSignature: response.signature).outcome
    }

    /// §11.18.6.13: one self-signed root per fail-safe, for the AddNOC that follows.
    private func addTrustedRoot(_ certificate: [UInt8], in node: inout NodeState) -> CommandOutcome {
        guard var failSafe = node.failSafe else { return .status(.failsafeRequired) }
        guard failSafe.pendingRoot == nil || failSafe.pendingRoot == certificate, failSafe.addedFabric == nil else {
            return .status(.constraintError)
        }
        guard let root = try? MatterCertificate(tlv: certificate),
            root.basicConstraints?.isCertificateAuthority == true,
            root.issuer == root.subject, (try? root.verifySignature(issuerPublicKey: root.publicKey)) != nil
        else {
            return .status(.invalidCommand)
        }
        failSafe.pendingRoot = certificate
        node.failSafe = failSafe
        node.markChanged(endpoint: 0, cluster: id, attributes: [Cluster.Attributes.trustedRootCertificates.id.rawValue])
        return .success
    }

    /// §11.18.6.8: a new fabric from the pending root, the NOC for the CSR's key, the IPK and the administrator,
    /// who is granted Administer over CASE.
    private func addNOC(_ add: Commands.AddNOC, in node: inout NodeState, request: ClusterRequest) -> CommandOutcome {
        guard var failSafe = node.failSafe else { return .status(.failsafeRequired) }
        guard failSafe.addedFabric == nil, failSafe.updatedFabric == nil else { return .status(.constraintError) }
        guard let key = failSafe.pendingKey, !failSafe.pendingKeyIsForUpdate else {
            return NOCResponse(statusCode: .missingCsr, debugText: "no CSRRequest preceded AddNOC").outcome
        }
        guard let root = failSafe.pendingRoot else {
            return NOCResponse(statusCode: .invalidNOC, debugText: "no AddTrustedRootCertificate preceded AddNOC")
                .outcome
        }
        guard let index = node.freeFabricIndex() else {
            return NOCResponse(statusCode: .tableFull, debugText: "every fabric slot is used").outcome
        }
        guard add.ipkValue.count == 16 else { return .status(.constraintError) }
        guard
            CertificateLimits.operationalNodeIDs.contains(add.caseAdminSubject)
                || isCASEAuthenticatedTag(add.caseAdminSubject)
        else {
            return NOCResponse(
                statusCode: .invalidAdminSubject, debugText: "the admin subject is neither a node ID nor a CAT"
            ).outcome
        }
        let fabric: Fabric
        do {
            fabric = try Fabric(
                index: index, rootCertificate: root, noc: add.nocValue, icac: add.icacValue, ipkEpochKey: add.ipkValue,
                operationalKey: key.rawRepresentation, vendorID: add.adminVendorId, label: "",
                accessControl: [
                    AccessControlEntry(privilege: .administer, authMode: .case, subjects: [add.caseAdminSubject])
                ])
        } catch {
            return NOCResponse(statusCode: .invalidNOC, debugText: "\(error)").outcome
        }
        guard (try? MatterCertificate(tlv: add.nocValue))?.publicKey == key.publicKey.x963Representation else {
            return NOCResponse(
                statusCode: .invalidPublicKey, debugText: "the NOC does not certify the key of the last CSR"
            ).outcome
        }
        guard
            !node.fabrics.contains(where: { $0.rootPublicKey == fabric.rootPublicKey && $0.fabricID == fabric.fabricID }
            )
        else {
            return NOCResponse(statusCode: .fabricConflict, debugText: "the device is already on this fabric").outcome
        }
        node.fabrics.append(fabric)
        failSafe.addedFabric = index
        failSafe.fabricIndex = index
        failSafe.pendingKey = nil
        node.failSafe = failSafe
        if let session = node.session, session.isPASE {
            node.effects.append(.bindSession(session.handle, fabricIndex: index))
        }
        node.fabricsChanged()
        node.effects.append(
            .log(
                "[commissioning] AddNOC: fabric \(index) (fabric ID 0x\(hex(fabric.fabricID)), node 0x\(hex(fabric.nodeID)))"
            ))
        return NOCResponse(statusCode: .ok, fabricIndex: index).outcome
    }

    /// §11.18.6.9: new credentials for the accessing fabric, from a CSR asked for UpdateNOC.
    private func updateNOC(
        _ update: Commands.UpdateNOC, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        guard let position = node.fabrics.firstIndex(where: { $0.index == request.context.fabricIndex }) else {
            return .status(.unsupportedAccess)
        }
        guard var failSafe = node.failSafe else { return .status(.failsafeRequired) }
        guard failSafe.addedFabric == nil, failSafe.updatedFabric == nil else { return .status(.constraintError) }
        guard let key = failSafe.pendingKey, failSafe.pendingKeyIsForUpdate else {
            return NOCResponse(statusCode: .missingCsr, debugText: "no CSRRequest for UpdateNOC preceded it").outcome
        }
        let current = node.fabrics[position]
        let updated: Fabric
        do {
            updated = try Fabric(
                index: current.index, rootCertificate: current.rootCertificate, noc: update.nocValue,
                icac: update.icacValue,
                ipkEpochKey: current.ipkEpochKey, operationalKey: key.rawRepresentation, vendorID: current.vendorID,
                label: current.label, accessControl: current.accessControl)
        } catch {
            return NOCResponse(statusCode: .invalidNOC, debugText: "\(error)").outcome
        }
        guard updated.fabricID == current.fabricID else {
            return NOCResponse(statusCode: .invalidNOC, debugText: "the new NOC is for another fabric").outcome
        }
        guard (try? MatterCertificate(tlv: update.nocValue))?.publicKey == key.publicKey.x963Representation else {
            return NOCResponse(
                statusCode: .invalidPublicKey, debugText: "the NOC does not certify the key of the last CSR"
            ).outcome
        }
        node.fabrics[position] = updated
        failSafe.updatedFabric = current.index
        failSafe.pendingKey = nil
        node.failSafe = failSafe
        node.fabricsChanged()
        return NOCResponse(statusCode: .ok, fabricIndex: current.index).outcome
    }

    /// §11.18.6.11: at most 32 characters, unique among the fabrics unless empty.
    private func updateLabel(_ label: String, in node: inout NodeState, request: ClusterRequest) -> CommandOutcome {
        guard let position = node.fabrics.firstIndex(where: { $0.index == request.context.fabricIndex }) else {
            return .status(.unsupportedAccess)
        }
        guard label.utf8.count <= 32 else { return .status(.constraintError) }
        guard
            label.isEmpty
                || !node.fabrics.contains(where: { $0.label == label && $0.index != request.context.fabricIndex })
        else {
            return NOCResponse(statusCode: .labelConflict, debugText: "another fabric has this label").outcome
        }
        node.fabrics[position].label = label
        if let kept = node.failSafe?.fabricsBefore.firstIndex(where: { $0.index == request.context.fabricIndex }) {
            node.failSafe?.fabricsBefore[kept].label = label
        }
        node.fabricsChanged()
        return NOCResponse(statusCode: .ok, fabricIndex: request.context.fabricIndex).outcome
    }

    /// §11.18.6.12: forgets the fabric at once (no fail-safe needed) and ends its sessions; the last one gone, the
    /// device is commissionable again.
    private func removeFabric(_ index: UInt8, in node: inout NodeState) -> CommandOutcome {
        guard node.fabric(index) != nil else {
            return NOCResponse(statusCode: .invalidFabricIndex, debugText: "no fabric \(index)").outcome
        }
        node.fabrics.removeAll { $0.index == index }
        node.failSafe?.fabricsBefore.removeAll { $0.index == index }
        node.fabricsChanged()
        node.effects += [.closeSessions(fabricIndex: index), .log("[commissioning] fabric \(index) removed")]
        if node.fabrics.isEmpty, node.failSafe == nil, node.commissioningWindow == nil {
            node.commissioningWindow = node.commissionable?.onboardingWindow
        }
        return NOCResponse(statusCode: .ok, fabricIndex: index).outcome
    }

    /// §6.6.2.1.2: CASE Authenticated Tag subjects are 0xFFFF_FFFD_xxxx_xxxx with a non-zero version.
    private func isCASEAuthenticatedTag(_ subject: UInt64) -> Bool {
        subject >> 32 == 0xFFFF_FFFD && subject & 0xFFFF != 0
    }
}

func hex(_ value: UInt64) -> String {
    String(value, radix: 16, uppercase: true)
}
