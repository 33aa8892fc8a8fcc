/// Writes one cluster as a Home API trait: `<Name>Trait`, its attributes read from the hub's cache and one async method
/// per command the server accepts (the shape is documented on `Trait` in HomeAPI).
struct TraitRenderer {
    let renderer: ClusterRenderer
    let resolver: SwiftTypeResolver

    /// Names the `Trait` protocol and the generated struct already use; a command of that name would shadow them.
    static let reservedMembers: Set<String> = ["attributes", "context", "metadata", "supports", "`init`"]

    var cluster: IDLCluster { renderer.cluster }
    var typeName: String { SwiftNaming.upperCamel(cluster.name) + "Trait" }

    func render(into writer: inout SourceWriter) throws(GeneratorError) {
        let clusterType = renderer.qualifiedTypeName
        writer.line(
            "// Matter cluster \(cluster.name) \(Hex.format(cluster.id, digits: 4)) as a trait: its attributes from the hub's cache, its commands."
        )
        try writer.block("public struct \(typeName): Trait") { writer throws(GeneratorError) in
            writer.line("public typealias Cluster = \(clusterType)")
            writer.line("public let context: TraitContext")
            writer.line("public init(context: TraitContext) { self.context = context }")
            writer.line("public var attributes: Attributes { Attributes(context: context) }")
            for event in cluster.events {
                let name = SwiftNaming.typeName(event.name, kind: "Event")
                writer.line("/// The cluster's \(event.name) event, for `HomeDevice.events.subscribe(_:)`.")
                writer.line(
                    "public typealias \(SwiftNaming.upperCamel(event.name))Event = \(clusterType).Events.\(name)")
            }
            writer.line()
            try writer.block("public struct Attributes: Hashable, Sendable") { writer throws(GeneratorError) in
                writer.line("let context: TraitContext")
                for (name, type) in try renderer.readableAttributes() {
                    guard name != "context" else {
                        throw .semantic(
                            line: cluster.line,
                            message: "cluster \(cluster.name): an attribute named context shadows the trait's context")
                    }
                    writer.line("public var \(name): \(type)? { context.value(\(clusterType).Attributes.\(name)) }")
                }
            }
            for command in cluster.commands {
                writer.line()
                try renderCommand(command, clusterType: clusterType, into: &writer)
            }
        }
    }

    private func renderCommand(
        _ command: IDLCommand, clusterType: String, into writer: inout SourceWriter
    ) throws(GeneratorError) {
        let name = SwiftNaming.member(command.name)
        guard !Self.reservedMembers.contains(name) else {
            throw .semantic(
                line: command.line,
                message: "cluster \(cluster.name): command \(command.name) would shadow the trait's \(name)")
        }
        let (fields, isFabricScoped) = try renderer.requestFields(of: command)
        let parameters = try TypeRenderer(resolver: resolver, cluster: cluster).initialiserParameters(
            fields, isFabricScoped: isFabricScoped)
        let arguments = parameters.map { "\($0.name): \($0.name)" }.joined(separator: ", ")
        let request = "\(clusterType).Commands.\(SwiftNaming.typeName(command.name, kind: "Command"))(\(arguments))"
        let response = try renderer.responseType(of: command, qualified: true)
        let result = response == "DefaultSuccess" ? "" : " -> \(response)"
        writer.documentation(command.documentation)
        writer.line(
            "public func \(name)(\(parameters.map(\.declaration).joined(separator: ", "))) async throws(HomeError)\(result) {"
        )
        writer.line("    try await context.invoke(\(request))")
        writer.line("}")
    }
}
