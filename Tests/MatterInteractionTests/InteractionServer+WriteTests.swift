import MatterMessaging
import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct InteractionServerWriteTests {
    typealias F = ServerFixture

    static func write(
        _ data: AttributeDataIB, into server: inout InteractionServer<ToyDataModel>, timed: Bool = false,
        context: AccessContext = F.admin
    ) throws -> InteractionModelStatus? {
        let actions = server.receive(
            .writeRequest, WriteRequestMessage(timedRequest: timed, writeRequests: [data]).encoded(),
            on: F.exchange(1), context: context)
        let payload = try #require(F.sent(actions).first { $0.0 == .writeResponse }?.1)
        let response = try WriteResponseMessage(payload: payload)
        #expect(response.writeResponses.map(\.path) == [data.path])
        return response.writeResponses.first?.status.status
    }

    static func onTime(_ value: UInt64, version: UInt32? = nil) -> AttributeDataIB {
        AttributeDataIB(
            dataVersion: version, path: F.path(1, ToyDataModel.onOff, 0x4001), data: TLVElement(.unsigned(value)))
    }

    @Test func writableAttributeIsWrittenAndItsVersionBumped() throws {
        var server = InteractionServer(provider: ToyDataModel())
        #expect(try Self.write(Self.onTime(30, version: 106), into: &server) == .success)
        #expect(server.provider.onTime == 30)
        #expect(server.provider.dataVersion(of: ConcreteClusterPath(endpoint: 1, cluster: 6)) == 107)
    }

    @Test(arguments: [
        (
            AttributeDataIB(path: F.path(1, 6, 0x0000), data: TLVElement(.bool(true))),
            InteractionModelStatus.unsupportedWrite
        ),
        (AttributeDataIB(path: F.path(1, 6, 0x7777), data: TLVElement(.bool(true))), .unsupportedAttribute),
        (AttributeDataIB(path: F.path(3, 6, 0x4001), data: TLVElement(.bool(true))), .unsupportedEndpoint),
        (AttributeDataIB(path: F.path(2, 6, 0x4001), data: TLVElement(.bool(true))), .unsupportedCluster),
        (AttributeDataIB(path: F.path(nil, 6, 0x4001), data: TLVElement(.unsigned(1))), .invalidAction),
        (AttributeDataIB(path: F.path(1, 6, 0xFFFD), data: TLVElement(.unsigned(1))), .unsupportedWrite),
        (AttributeDataIB(path: F.path(1, 6, 0x4001), data: TLVElement(.unsigned(70_000))), .constraintError),
        (AttributeDataIB(path: F.path(1, 6, 0x4001), data: TLVElement(.utf8("x"))), .invalidDataType),
        (
            AttributeDataIB(dataVersion: 105, path: F.path(1, 6, 0x4001), data: TLVElement(.unsigned(1))),
            .dataVersionMismatch
        ),
        (AttributeDataIB(path: F.path(2, 8, 0x0011), data: TLVElement(.unsigned(5))), .needsTimedInteraction),
    ])
    func refusedWriteGetsItsStatusAndChangesNothing(data: AttributeDataIB, status: InteractionModelStatus) throws {
        var server = InteractionServer(provider: ToyDataModel())
        #expect(try Self.write(data, into: &server) == status)
        #expect(server.provider.onTime == 0 && server.provider.onLevel == 200 && server.provider.versions.isEmpty)
    }

    @Test func writeWithoutTheWritePrivilegeGetsUnsupportedAccess() throws {
        var provider = ToyDataModel()
        provider.grants = [F.viewer.subject: .view]
        var server = InteractionServer(provider: provider)
        #expect(try Self.write(Self.onTime(5), into: &server, context: F.viewer) == .unsupportedAccess)
        #expect(server.provider.onTime == 0)
    }

    @Test func timedWriteInsideItsWindowSucceeds() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        let opened = server.receive(.timedRequest, TimedRequestMessage(timeout: 500).encoded(), on: exchange)
        #expect(try F.status(opened) == .success)
        #expect(!F.closes(opened, exchange))
        let level = AttributeDataIB(path: F.path(2, 8, 0x0011), data: TLVElement(.unsigned(77)))
        let actions = server.receive(
            .writeRequest, WriteRequestMessage(timedRequest: true, writeRequests: [level]).encoded(),
            on: exchange, now: F.at(seconds: 0.4))
        let response = try WriteResponseMessage(payload: try #require(F.sent(actions).first?.1))
        #expect(response.writeResponses == [AttributeStatusIB(path: level.path, status: StatusIB(status: .success))])
        #expect(server.provider.onLevel == 77)
        #expect(F.closes(actions, exchange))
    }

    @Test func timedFlagWithoutTimedRequestIsAMismatch() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let actions = server.receive(
            .writeRequest, WriteRequestMessage(timedRequest: true, writeRequests: [Self.onTime(1)]).encoded(),
            on: F.exchange(1))
        #expect(try F.status(actions) == .timedRequestMismatch)
        #expect(server.provider.onTime == 0)
    }

    @Test func chunkedListWriteReplacesThenAppends() throws {
        var server = InteractionServer(provider: ToyDataModel())
        let exchange = F.exchange(1)
        let list = F.path(2, ToyDataModel.userLabel, 0)
        var appended = list
        appended.listIndex = .append
        let item = { (name: String) in
            TLVElement(
                .structure([TLVElement(tag: .context(0), .utf8(name)), TLVElement(tag: .context(1), .utf8(""))]))
        }
        let first = server.receive(
            .writeRequest,
            WriteRequestMessage(
                writeRequests: [
                    AttributeDataIB(dataVersion: 165, path: list, data: TLVElement(.array([]))),
                    AttributeDataIB(path: appended, data: item("a")),
                ], moreChunkedMessages: true
            ).encoded(), on: exchange)
        #expect(F.sent(first).map(\.0) == [.writeResponse])
        #expect(!F.closes(first, exchange))
        let last = server.receive(
            .writeRequest,
            WriteRequestMessage(writeRequests: [AttributeDataIB(path: appended, data: item("b"))]).encoded(),
            on: exchange)
        #expect(F.closes(last, exchange))
        #expect(server.provider.labels == [item("a"), item("b")])
    }
}
