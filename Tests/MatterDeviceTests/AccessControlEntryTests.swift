import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterTLV
import Testing

/// Access control as the device enforces it (`NodeDataModel.isAllowed`) and as the Acl attribute is written.
struct AccessControlEntryTests {
    static let admin: UInt64 = 0x0000_0000_0000_0A11
    static let operatorNode: UInt64 = 0x0000_0000_0000_0B22
    static let onOff = ConcreteClusterPath(endpoint: 1, cluster: 0x0006)

    static func model(entries: [AccessControlEntry] = []) throws -> NodeDataModel {
        let fabric = try NodeFixture.fabric(index: 1, admin: admin, extraEntries: entries)
        return NodeDataModel(
            node: NodeFixture.node(fabrics: [fabric]), root: .rootNode(interfaces: [], rebootCount: 1, bootTime: .zero),
            applicationEndpoints: DeviceKind.light.applicationEndpoints())
    }

    @Test func theAdminMayDoEverythingOthersNothing() throws {
        let model = try Self.model()
        #expect(
            model.isAllowed(
                AccessRequest(cluster: Self.onOff, privilege: .administer),
                for: NodeFixture.caseContext(fabric: 1, subject: Self.admin)))
        #expect(
            !model.isAllowed(
                AccessRequest(cluster: Self.onOff, privilege: .view),
                for: NodeFixture.caseContext(fabric: 1, subject: Self.operatorNode)))
        // The same subject on a fabric the device does not have.
        #expect(
            !model.isAllowed(
                AccessRequest(cluster: Self.onOff, privilege: .view),
                for: NodeFixture.caseContext(fabric: 2, subject: Self.admin)))
    }

    @Test func anOperateEntryOnOneClusterGrantsOnlyThatClusterUpToOperate() throws {
        let entry = AccessControlEntry(
            privilege: .operate, authMode: .case, subjects: [Self.operatorNode], targets: [.init(cluster: 0x0006)])
        let model = try Self.model(entries: [entry])
        let context = NodeFixture.caseContext(fabric: 1, subject: Self.operatorNode)
        #expect(model.isAllowed(AccessRequest(cluster: Self.onOff, privilege: .operate), for: context))
        #expect(model.isAllowed(AccessRequest(cluster: Self.onOff, privilege: .view), for: context))
        #expect(!model.isAllowed(AccessRequest(cluster: Self.onOff, privilege: .manage), for: context))
        #expect(
            !model.isAllowed(
                AccessRequest(cluster: ConcreteClusterPath(endpoint: 1, cluster: 0x0003), privilege: .view),
                for: context))
    }

    @Test func aDeviceTypeTargetMatchesTheEndpointsOfThatType() throws {
        let entry = AccessControlEntry(
            privilege: .view, authMode: .case, subjects: [], targets: [.init(deviceType: 0x0100)])
        let model = try Self.model(entries: [entry])
        let anyone = NodeFixture.caseContext(fabric: 1, subject: 0x77)
        #expect(model.isAllowed(AccessRequest(cluster: Self.onOff, privilege: .view), for: anyone))
        #expect(
            !model.isAllowed(
                AccessRequest(cluster: ConcreteClusterPath(endpoint: 0, cluster: 0x0028), privilege: .view), for: anyone
            ))
    }

    @Test func paseIsAnImplicitAdministratorOnlyWhileCommissioning() throws {
        let model = try Self.model()
        #expect(model.isAllowed(AccessRequest(cluster: Self.onOff, privilege: .administer), for: NodeFixture.pase))
        var closed = NodeFixture.pase
        closed.isCommissioning = false
        #expect(!model.isAllowed(AccessRequest(cluster: Self.onOff, privilege: .view), for: closed))
    }

    @Test func writingTheAclReplacesTheFabricsEntriesAndRefusesInvalidOnes() throws {
        var model = try Self.model()
        let acl = ConcreteAttributePath(endpoint: 0, cluster: 0x001F, attribute: 0)
        let context = NodeFixture.caseContext(fabric: 1, subject: Self.admin)
        func entry(privilege: UInt64, authMode: UInt64, subjects: [UInt64]) -> TLVElement {
            TLVElement(
                .structure([
                    TLVElement(tag: .context(1), .unsigned(privilege)),
                    TLVElement(tag: .context(2), .unsigned(authMode)),
                    TLVElement(tag: .context(3), .array(subjects.map { TLVElement(.unsigned($0)) })),
                    TLVElement(tag: .context(4), .null),
                ]))
        }
        let valid = TLVElement(
            .array([
                entry(privilege: 5, authMode: 2, subjects: [Self.admin]),
                entry(privilege: 3, authMode: 2, subjects: [Self.operatorNode]),
            ]))
        #expect(model.write(acl, value: valid, context: context) == .success)
        #expect(model.node.fabrics[0].accessControl.map(\.subjects) == [[Self.admin], [Self.operatorNode]])
        #expect(
            model.isAllowed(
                AccessRequest(cluster: Self.onOff, privilege: .operate),
                for: NodeFixture.caseContext(fabric: 1, subject: Self.operatorNode)))

        // §9.10.5.3: PASE is no ACL auth mode, a group cannot administer, and an entry holds at most 4 subjects.
        for invalid in [
            entry(privilege: 5, authMode: 1, subjects: []), entry(privilege: 5, authMode: 3, subjects: [1]),
            entry(privilege: 1, authMode: 2, subjects: [1, 2, 3, 4, 5]),
        ] {
            #expect(model.write(acl, value: TLVElement(.array([invalid])), context: context) == .constraintError)
        }
        #expect(model.node.fabrics[0].accessControl.count == 2)
        #expect(
            model.write(
                acl,
                value: TLVElement(.array(Array(repeating: entry(privilege: 1, authMode: 2, subjects: []), count: 5))),
                context: context) == .resourceExhausted)
    }

    @Test func theAclReadIsFabricFilteredAndCarriesTheFabricIndex() throws {
        let model = try Self.model()
        let acl = ConcreteAttributePath(endpoint: 0, cluster: 0x001F, attribute: 0)
        let read = model.read(
            acl, isFabricFiltered: true, context: NodeFixture.caseContext(fabric: 1, subject: Self.admin))
        guard case .success(.array(let entries)) = read else {
            Issue.record("expected a list, got \(read)")
            return
        }
        let decoded = try entries.map { try AccessControlCluster.AccessControlEntryStruct(tlv: $0) }
        #expect(
            decoded == [
                AccessControlCluster.AccessControlEntryStruct(
                    privilege: .administer, authMode: .case, subjects: .value([Self.admin]),
                    targets: .null, fabricIndex: 1)
            ])
        let other = model.read(
            acl, isFabricFiltered: true, context: NodeFixture.caseContext(fabric: 2, subject: Self.admin))
        #expect(other == .success(.array([])))
    }

    /// connectedhomeip writes a list as "replace with an empty list, then append each item", in one WriteRequest: the
    /// ACL too. The writer's access is decided once for the path, as connectedhomeip's servers do, so the empty list
    /// taking its own entry away does not refuse the items after it; a writer without access gets none of them in.
    @Test func anAclWrittenItemByItemKeepsTheWritersAccessForTheWholeWrite() throws {
        let acl = AttributePathIB(endpoint: 0, cluster: 0x001F, attribute: 0)
        let item = AttributePathIB(endpoint: 0, cluster: 0x001F, attribute: 0, listIndex: .append)
        let admin = AccessControlCluster.AccessControlEntryStruct(
            privilege: .administer, authMode: .case, subjects: .value([Self.admin]), targets: .null)
        let group = AccessControlCluster.AccessControlEntryStruct(
            privilege: .operate, authMode: .group, subjects: .value([0x0103]), targets: .null)
        let request = WriteRequestMessage(writeRequests: [
            AttributeDataIB(path: acl, data: TLVElement(.array([]))),
            AttributeDataIB(path: item, data: TLVElement(admin.tlvValue())),
            AttributeDataIB(path: item, data: TLVElement(group.tlvValue())),
        ])
        let exchange = ExchangeHandle(session: SessionHandle(rawValue: 1), exchangeID: 7, role: .responder)
        var server = InteractionServer(provider: try Self.model())
        _ = server.handle(
            opcode: InteractionModelOpcode.writeRequest.rawValue, payload: request.encoded(), on: exchange,
            context: NodeFixture.caseContext(fabric: 1, subject: Self.admin), now: .zero)
        #expect(
            server.provider.node.fabrics[0].accessControl == [
                AccessControlEntry(privilege: .administer, authMode: .case, subjects: [Self.admin]),
                AccessControlEntry(privilege: .operate, authMode: .group, subjects: [0x0103]),
            ])

        var stranger = InteractionServer(provider: try Self.model())
        let actions = stranger.handle(
            opcode: InteractionModelOpcode.writeRequest.rawValue, payload: request.encoded(), on: exchange,
            context: NodeFixture.caseContext(fabric: 1, subject: Self.operatorNode), now: .zero)
        #expect(stranger.provider.node.fabrics[0].accessControl.count == 1)
        guard case .send(.writeResponse, let payload, _)? = actions.first else {
            Issue.record("no WriteResponse: \(actions)")
            return
        }
        let statuses = try WriteResponseMessage(payload: payload).writeResponses.map(\.status.status)
        #expect(statuses == [.unsupportedAccess, .unsupportedAccess, .unsupportedAccess])
    }
}
