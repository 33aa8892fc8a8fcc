import Testing

@testable import MatterServer

/// Test nodes live in the API's memory: held to a bound, an import past it refused whole.
@Suite struct MatterServerTestNodesTests {
    static func dump(_ count: Int) -> String {
        let node =
            #"{"date_commissioned": "2026-01-01T00:00:00", "last_interview": "2026-01-01T00:00:00", "interview_version": 6, "available": true, "is_bridge": false, "attributes": {"0/40/1": "Acme"}, "attribute_subscriptions": []}"#
        return #"{"data": {"server": {"nodes": ["# + Array(repeating: node, count: count).joined(separator: ", ")
            + "]}}}"
    }

    @Test func importsStopAtTheBoundAndOnePastItIsRefusedWhole() throws {
        let nodes = MatterServerTestNodes()
        #expect(
            try nodes.importNodes(from: Self.dump(MatterServerTestNodes.limit - 1), besides: []).count
                == MatterServerTestNodes.limit - 1)
        let refused = #expect(throws: MatterServerTestNodes.Invalid.self) {
            try nodes.importNodes(from: Self.dump(2), besides: [])
        }
        #expect(refused?.description.contains("pass the \(MatterServerTestNodes.limit)") == true)
        #expect(nodes.all.count == MatterServerTestNodes.limit - 1, "nothing of the refused import was kept")
        #expect(try nodes.importNodes(from: Self.dump(1), besides: []).count == 1)
        #expect(nodes.all.count == MatterServerTestNodes.limit)
        #expect(nodes.remove(MatterServerTestNodes.firstNodeID))
        #expect(try nodes.importNodes(from: Self.dump(1), besides: []).count == 1)
    }
}
