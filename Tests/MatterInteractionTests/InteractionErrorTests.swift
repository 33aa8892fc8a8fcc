import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InteractionErrorTests {
    @Test func aCommandStatusNamesTheCommandAndExplainsTheStatus() {
        let error = InteractionError.status(
            StatusIB(status: .unsupportedCommand), path: .command(CommandPathIB(endpoint: 1, cluster: 6, command: 2)))
        #expect(
            error.description
                == "cluster 0x0006 command 0x0002 on endpoint 1: UNSUPPORTED_COMMAND (the device does not implement this command)"
        )
        #expect(error.status == .unsupportedCommand)
    }

    @Test func aClusterStatusIsShown() {
        let error = InteractionError.status(
            StatusIB(status: .failure, clusterStatus: 3),
            path: .attribute(AttributePathIB(endpoint: 0, cluster: 0x30, attribute: 0)))
        #expect(
            error.description
                == "endpoint 0, cluster 0x0030, attribute 0x0000: FAILURE (the operation failed and the device gave no specific reason), cluster status 0x03"
        )
    }

    @Test func otherFailuresReadClearly() {
        #expect(
            InteractionError.malformed(.reportData, .missingField(1)).description
                == "malformed ReportData: missing field 1")
        #expect(
            InteractionError.unexpectedMessage(opcode: 0x07, expecting: "ReportData").description
                == "unexpected WriteResponse (0x07) while waiting for ReportData")
        #expect(
            InteractionError.unexpectedMessage(opcode: 0x42, expecting: "InvokeResponse").description
                == "unexpected opcode 0x42 while waiting for InvokeResponse")
        #expect(
            InteractionError.subscriptionMismatch(expected: 1, received: 2).description
                == "report for subscription 2 arrived on subscription 1")
        #expect(InteractionError.malformed(.reportData, .missingField(1)).status == nil)
    }
}
