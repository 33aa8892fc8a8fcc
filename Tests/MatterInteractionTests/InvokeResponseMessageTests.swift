import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InvokeResponseMessageTests {
    @Test func decodesAStatusOnlyResponse() throws {
        let response = try InvokeResponseMessage(payload: CapturedMessages.addTrustedRootResponse)
        #expect(!response.suppressResponse && !response.moreChunkedMessages)
        #expect(
            response.invokeResponses == [
                .status(
                    CommandStatusIB(
                        path: CommandPathIB(endpoint: 0, cluster: 0x3E, command: 0x0B),
                        status: StatusIB(status: .success)))
            ])
        #expect(response.interactionModelRevision == 1)
        #expect(response.encoded() == CapturedMessages.addTrustedRootResponse)
    }
}
