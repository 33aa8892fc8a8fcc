import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct WriteTransactionTests {
    static let nodeLabel = AttributeDataIB(
        path: AttributePathIB(endpoint: 0, cluster: 0x28, attribute: 5), data: TLVElement(.utf8("Kitchen")))

    @Test func allSuccessCompletesWithTheStatuses() throws {
        var write = WriteTransaction(writes: [Self.nodeLabel])
        guard case .send(.writeRequest, let payload) = write.start() else {
            Issue.record("no WriteRequest")
            return
        }
        let request = try WriteRequestMessage(payload: payload)
        #expect(!request.timedRequest && request.writeRequests == [Self.nodeLabel])
        let statuses = [AttributeStatusIB(path: Self.nodeLabel.path, status: StatusIB(status: .success))]
        #expect(
            write.receive(opcode: 0x07, payload: WriteResponseMessage(writeResponses: statuses).encoded()) == [
                .completed(statuses)
            ])
    }

    @Test func theFirstFailingPathIsTheError() {
        let other = AttributeDataIB(
            path: AttributePathIB(endpoint: 1, cluster: 6, attribute: 0x4003), data: TLVElement(.unsigned(9)))
        var write = WriteTransaction(writes: [Self.nodeLabel, other])
        _ = write.start()
        let response = WriteResponseMessage(writeResponses: [
            AttributeStatusIB(path: Self.nodeLabel.path, status: StatusIB(status: .success)),
            AttributeStatusIB(path: other.path, status: StatusIB(status: .constraintError)),
        ])
        #expect(
            write.receive(opcode: 0x07, payload: response.encoded())
                == [.failed(.status(StatusIB(status: .constraintError), path: .attribute(other.path)))])
    }

    @Test func aTimedWriteSendsTheTimedRequestFirst() throws {
        var write = WriteTransaction(writes: [Self.nodeLabel], timedWindow: .seconds(5))
        #expect(write.start() == .send(.timedRequest, TimedRequestMessage(timeout: 5000).encoded()))
        guard
            case .send(.writeRequest, let payload)? = only(
                write.receive(opcode: 0x01, payload: StatusResponseMessage(status: .success).encoded()))
        else {
            Issue.record("no WriteRequest after the TimedRequest")
            return
        }
        #expect(try WriteRequestMessage(payload: payload).timedRequest)
    }

    @Test func aStatusResponseErrorNamesTheSingleWrittenPath() {
        var write = WriteTransaction(writes: [Self.nodeLabel])
        _ = write.start()
        #expect(
            write.receive(opcode: 0x01, payload: StatusResponseMessage(status: .unsupportedAccess).encoded())
                == [.failed(.status(StatusIB(status: .unsupportedAccess), path: .attribute(Self.nodeLabel.path)))])
    }
}
