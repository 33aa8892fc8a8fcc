import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterNode
import MatterTLV

/// Drives one cluster server on endpoint 1 of a fresh node, as the data model would, for the servers' own tests.
struct ClusterServerHarness<Server: ClusterServer> {
    var server: Server
    var node = NodeFixture.node()
    let request = ClusterRequest(endpoint: 1, context: NodeFixture.pase)

    init(_ server: Server) {
        self.server = server
    }

    var version: UInt32 { node.dataVersion(of: ConcreteClusterPath(endpoint: 1, cluster: server.description.id)) }

    mutating func invoke<Command: ClusterCommand>(_ command: Command) -> CommandOutcome {
        server.invoke(Command.id.rawValue, fields: TLVElement(command.tlvValue()), in: &node, request: request)
    }

    mutating func write<Value: TLVCodable>(
        _ attribute: AttributeDefinition<Value>, _ value: Value
    ) -> InteractionModelStatus {
        server.write(attribute.id.rawValue, value: TLVElement(value.tlvValue()), in: &node, request: request)
    }

    func read<Value>(_ attribute: AttributeDefinition<Value>) -> TLVValue? {
        try? server.read(attribute.id.rawValue, in: node, request: request).get()
    }

    /// Delivers the signals the server sent, as the data model does for the endpoint's other clusters.
    mutating func deliver(_ signal: EndpointSignal) {
        server.receive(signal, in: &node, endpoint: 1)
    }

    var logLines: [String] {
        node.effects.compactMap { if case .log(let line) = $0 { line } else { nil } }
    }
}
