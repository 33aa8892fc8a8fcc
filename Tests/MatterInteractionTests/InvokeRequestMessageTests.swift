import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

@Suite struct InvokeRequestMessageTests {
    static let armFailSafe = CommandDataIB(
        path: CommandPathIB(endpoint: 0, cluster: 0x30, command: 0),
        fields: TLVElement(
            .structure([TLVElement(tag: .context(0), .unsigned(60)), TLVElement(tag: .context(1), .unsigned(3))]))
    )

    @Test func decodesTheArmFailSafeAnIPhoneSent() throws {
        let request = try InvokeRequestMessage(payload: CapturedMessages.appleArmFailSafe)
        #expect(!request.suppressResponse && !request.timedRequest)
        #expect(request.invokeRequests == [Self.armFailSafe])
        #expect(request.interactionModelRevision == 12)
    }

    @Test func encodesTheSameBytesAsTheIPhone() {
        #expect(InvokeRequestMessage(invokeRequests: [Self.armFailSafe]).encoded() == CapturedMessages.appleArmFailSafe)
    }

    @Test func acceptsAPeerThatSendsNoRevision() throws {
        let request = try InvokeRequestMessage(payload: CapturedMessages.rsMatterInvoke)
        #expect(request.interactionModelRevision == nil)
        #expect(request.invokeRequests.first?.path == CommandPathIB(endpoint: 0, cluster: 49, command: 12))
        #expect(request.invokeRequests.first?.fields?[context: 0] == TLVElement(tag: .context(0), .unsigned(5)))
        #expect(request.encoded() == CapturedMessages.rsMatterInvoke)
    }

    @Test func aCommandWithoutFieldsLeavesTheFieldsOut() {
        let toggle = CommandDataIB(path: CommandPathIB(endpoint: 1, cluster: 6, command: 2))
        #expect(
            InvokeRequestMessage(invokeRequests: [toggle]).encoded()
                == hex(
                    """
                    15 28 00 28 01 36 02 15 37 00 24 00 01 24 01 06 24 02 02 18 18 18 24 ff 0c 18
                    """))
    }
}
