import MatterDataModel
import MatterTLV
import MatterTestSupport
import Testing

/// The fabric-scoped AccessControlEntryStruct (Matter Core §9.10.4.5) as the generated code handles it.
@Suite struct AccessControlClusterTests {
    typealias Entry = AccessControlCluster.AccessControlEntryStruct

    /// The administer entry chip-tool writes for its own node: privilege 5, CASE, subjects [112233], targets null,
    /// fabric index 1.
    static let adminEntry = hex("15 24 01 05 24 02 02 36 03 06 69 b6 01 00 18 34 04 24 fe 01 18")

    @Test func decodesAndReencodesAnAdministerEntry() throws {
        let entry = try Entry(tlv: TLVReader.decode(Self.adminEntry))
        #expect(entry.privilege == .administer && entry.authMode == .case)
        #expect(entry.subjects == .value([112_233]) && entry.targets == .null && entry.fabricIndex == 1)
        #expect(entry.auxiliaryType == nil)
        #expect(TLVWriter.encode(TLVElement(entry.tlvValue())) == Self.adminEntry)
    }

    @Test func anotherFabricsEntryCarriesOnlyItsFabricIndex() throws {
        // Read without fabric filtering, a server leaves the fabric-sensitive fields of other fabrics out.
        let entry = try Entry(tlv: TLVReader.decode(hex("15 24 fe 02 18")))
        #expect(entry == Entry(fabricIndex: 2))
    }

    @Test func aClientWriteLeavesTheFabricIndexOut() {
        let entry = Entry(privilege: .view, authMode: .group, subjects: .null, targets: .null)
        #expect(TLVWriter.encode(TLVElement(entry.tlvValue())) == hex("15 24 01 01 24 02 03 34 03 34 04 18"))
    }

    @Test func aclNeedsAdministerToReadAndWrite() {
        #expect(AccessControlCluster.id == 0x001F)
        #expect(AccessControlCluster.Attributes.acl.readPrivilege == .administer)
        #expect(AccessControlCluster.Attributes.acl.writePrivilege == .administer)
        #expect(type(of: AccessControlCluster.Attributes.acl) == AttributeDefinition<[Entry]>.self)
        #expect(AccessControlCluster.Events.AccessControlEntryChanged.isFabricSensitive)
        #expect(AccessControlCluster.Events.AccessControlEntryChanged.readPrivilege == .administer)
    }

    @Test func timedCommandsAreMarked() {
        #expect(AdministratorCommissioningCluster.Commands.OpenCommissioningWindow.requiresTimedInvoke)
        #expect(AdministratorCommissioningCluster.Commands.OpenCommissioningWindow.invokePrivilege == .administer)
        #expect(DoorLockCluster.Commands.LockDoor.requiresTimedInvoke)
        #expect(!OnOffCluster.Commands.Toggle.requiresTimedInvoke)
        #expect(GroupsCluster.Commands.AddGroup.isFabricScoped && !OnOffCluster.Commands.Toggle.isFabricScoped)
    }
}
