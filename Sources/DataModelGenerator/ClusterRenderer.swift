/// Writes one cluster as a Swift namespace (the shape is documented on `ClusterDefinition` in MatterDataModel).
struct ClusterRenderer {
    let cluster: IDLCluster
    let resolver: SwiftTypeResolver

    /// Matter Core §7.13 Global Elements: the attributes every cluster has, whatever its IDL lists.
    static let globalAttributes: [(id: UInt64, name: String, type: String)] = [
        (0xFFF8, "generatedCommandList", "[CommandID]"),
        (0xFFF9, "acceptedCommandList", "[CommandID]"),
        (0xFFFB, "attributeList", "[AttributeID]"),
        (0xFFFC, "featureMap", "UInt32"),
        (0xFFFD, "clusterRevision", "UInt16"),
    ]

    var typeName: String { SwiftNaming.upperCamel(cluster.name) + "Cluster" }

    func render(into writer: inout SourceWriter) throws(GeneratorError) {
        let types = TypeRenderer(resolver: resolver, cluster: cluster)
        let maturity = cluster.maturity == .stable ? "" : " (\(cluster.maturity.rawValue) there)"
        writer.line(
            "// Matter cluster \(cluster.name) \(Hex.format(cluster.id, digits: 4)), revision \(cluster.revision), as the IDL defines it\(maturity)."
        )
        writer.documentation(cluster.documentation)
        try writer.block("public enum \(typeName): ClusterDefinition") { writer throws(GeneratorError) in
            guard cluster.id <= UInt64(UInt32.max), cluster.revision <= UInt64(UInt16.max) else {
                throw .semantic(line: cluster.line, message: "cluster \(cluster.name): ID or revision out of range")
            }
            writer.line("public static let id: ClusterID = \(Hex.format(cluster.id, digits: 4))")
            writer.line("public static let name = \"\(cluster.name)\"")
            writer.line("public static let revision: UInt16 = \(cluster.revision)")
            for constants in cluster.enums {
                writer.line()
                try types.renderEnum(constants, into: &writer)
            }
            for constants in cluster.bitmaps {
                writer.line()
                try types.renderBitmap(constants, into: &writer)
            }
            for structure in cluster.structs where structure.kind == .plain {
                writer.line()
                try types.renderStruct(
                    name: SwiftNaming.typeName(structure.name, kind: "Struct"),
                    conformance: "Hashable, Sendable, TLVCodable",
                    header: [], fields: structure.fields, isFabricScoped: structure.isFabricScoped, into: &writer)
            }
            writer.line()
            try renderAttributes(into: &writer)
            if !cluster.commands.isEmpty {
                writer.line()
                try renderCommands(types, into: &writer)
            }
            if !cluster.events.isEmpty {
                writer.line()
                try renderEvents(types, into: &writer)
            }
            writer.line()
            try renderInfo(into: &writer)
        }
    }

    // MARK: Attributes

    private func renderAttributes(into writer: inout SourceWriter) throws(GeneratorError) {
        let globalIDs = Set(Self.globalAttributes.map(\.id))
        var names: Set<String> = []
        try writer.block("public enum Attributes") { writer throws(GeneratorError) in
            for attribute in cluster.attributes where !globalIDs.contains(attribute.field.id) {
                let field = attribute.field
                var arguments: [String] = []
                if attribute.isWriteOnly {
                    arguments.append("read: nil")
                } else if attribute.readPrivilege != "view" {
                    arguments.append("read: \(try SwiftNaming.privilege(attribute.readPrivilege, line: field.line))")
                }
                if !attribute.isReadOnly {
                    arguments.append("write: \(try SwiftNaming.privilege(attribute.writePrivilege, line: field.line))")
                }
                if field.isNullable { arguments.append("nullable: true") }
                if field.isOptional { arguments.append("optional: true") }
                if attribute.requiresTimedWrite { arguments.append("timedWrite: true") }
                let type = try resolver.swiftType(
                    of: IDLField(
                        name: field.name, type: field.type, id: field.id,
                        isNullable: field.isNullable, line: field.line),
                    in: cluster, optional: false)
                try attributeLine(
                    field.name, id: field.id, type: type, arguments: arguments, line: field.line,
                    names: &names, into: &writer)
            }
            for global in Self.globalAttributes {
                let hasFeatures = global.name == "featureMap" && cluster.bitmaps.contains { $0.name == "Feature" }
                try attributeLine(
                    global.name, id: global.id, type: hasFeatures ? typeName + ".Feature" : global.type, arguments: [],
                    line: cluster.line, names: &names, into: &writer)
            }
        }
    }

    /// The readable attributes as `Attributes` declares them: member name and value type, in declaration order.
    func readableAttributes() throws(GeneratorError) -> [(member: String, type: String)] {
        let globalIDs = Set(Self.globalAttributes.map(\.id))
        var result: [(member: String, type: String)] = []
        for attribute in cluster.attributes where !globalIDs.contains(attribute.field.id) && !attribute.isWriteOnly {
            let field = attribute.field
            let type = try resolver.swiftType(
                of: IDLField(
                    name: field.name, type: field.type, id: field.id, isNullable: field.isNullable, line: field.line),
                in: cluster, optional: false)
            result.append((SwiftNaming.member(field.name), type))
        }
        for global in Self.globalAttributes {
            let hasFeatures = global.name == "featureMap" && cluster.bitmaps.contains { $0.name == "Feature" }
            result.append((SwiftNaming.member(global.name), hasFeatures ? qualifiedTypeName + ".Feature" : global.type))
        }
        return result
    }

    private func attributeLine(
        _ name: String, id: UInt64, type: String, arguments: [String], line: Int,
        names: inout Set<String>, into writer: inout SourceWriter
    ) throws(GeneratorError) {
        let member = SwiftNaming.member(name)
        guard id <= UInt64(UInt32.max), names.insert(member).inserted else {
            throw .semantic(
                line: line,
                message: "cluster \(cluster.name): attribute \(name) repeats a name or its ID is out of range")
        }
        let head =
            "cluster: \(typeName).id, id: \(Hex.format(id, digits: 4)), name: \"\(SwiftNaming.upperCamel(name))\""
        let rest = arguments.isEmpty ? "" : ", " + arguments.joined(separator: ", ")
        writer.line("public static let \(member) = AttributeDefinition<\(type)>(\(head)\(rest))")
    }

    // MARK: Commands

    private func renderCommands(_ types: TypeRenderer, into writer: inout SourceWriter) throws(GeneratorError) {
        try writer.block("public enum Commands") { writer throws(GeneratorError) in
            var first = true
            for command in cluster.commands {
                if !first { writer.line() }
                first = false
                try renderCommand(command, types, into: &writer)
            }
            for response in cluster.structs {
                guard case .response(let id) = response.kind else { continue }
                writer.line()
                let header = [
                    "public typealias Cluster = \(typeName)",
                    "public static let id: CommandID = \(try commandID(id, line: response.line))",
                    "public static let name = \"\(response.name)\"",
                ]
                try types.renderStruct(
                    name: SwiftNaming.typeName(response.name, kind: "Command"), conformance: "ClusterCommandResponse",
                    header: header, fields: response.fields, isFabricScoped: response.isFabricScoped, into: &writer)
            }
        }
    }

    /// The fields of a command's request struct (none for `Name()`), and whether that struct is fabric-scoped.
    func requestFields(of command: IDLCommand) throws(GeneratorError) -> (fields: [IDLField], isFabricScoped: Bool) {
        guard let input = command.input else { return ([], false) }
        guard
            let request = cluster.structs.first(where: { $0.name == input })
                ?? resolver.file.structs.first(where: { $0.name == input })
        else {
            throw .semantic(line: command.line, message: "command \(command.name): unknown request struct '\(input)'")
        }
        return (request.fields, request.isFabricScoped)
    }

    /// The Swift type a command's invocation answers with: `DefaultSuccess` or its response command struct, spelled
    /// from inside the vendor namespace or, `qualified`, from outside it.
    func responseType(of command: IDLCommand, qualified: Bool) throws(GeneratorError) -> String {
        if command.output == "DefaultSuccess" { return "DefaultSuccess" }
        guard cluster.structs.contains(where: { $0.name == command.output && $0.kind != .plain && $0.kind != .request })
        else {
            throw .semantic(
                line: command.line,
                message:
                    "command \(command.name): '\(command.output)' is not a response struct of cluster \(cluster.name)")
        }
        return
            "\(qualified ? qualifiedTypeName : typeName).Commands.\(SwiftNaming.typeName(command.output, kind: "Command"))"
    }

    /// The cluster's type name as code outside its namespace spells it.
    var qualifiedTypeName: String { resolver.clusterTypeName(cluster) }

    private func renderCommand(
        _ command: IDLCommand, _ types: TypeRenderer, into writer: inout SourceWriter
    ) throws(GeneratorError) {
        let (fields, isFabricScoped) = try requestFields(of: command)
        let response = try responseType(of: command, qualified: false)
        var header = [
            "public typealias Cluster = \(typeName)",
            "public typealias Response = \(response)",
            "public static let id: CommandID = \(try commandID(command.id, line: command.line))",
            "public static let name = \"\(command.name)\"",
        ]
        if command.invokePrivilege != "operate" {
            header.append(
                "public static let invokePrivilege = Privilege\(try SwiftNaming.privilege(command.invokePrivilege, line: command.line))"
            )
        }
        if command.isTimed { header.append("public static let requiresTimedInvoke = true") }
        if command.isFabricScoped { header.append("public static let isFabricScoped = true") }
        writer.documentation(command.documentation)
        try types.renderStruct(
            name: SwiftNaming.typeName(command.name, kind: "Command"), conformance: "ClusterCommand", header: header,
            fields: fields, isFabricScoped: isFabricScoped, into: &writer)
    }

    // MARK: Events

    private func renderEvents(_ types: TypeRenderer, into writer: inout SourceWriter) throws(GeneratorError) {
        try writer.block("public enum Events") { writer throws(GeneratorError) in
            var first = true
            for event in cluster.events {
                if !first { writer.line() }
                first = false
                guard event.id <= UInt64(UInt32.max) else {
                    throw .semantic(line: event.line, message: "event \(event.name): ID out of range")
                }
                var header = [
                    "public typealias Cluster = \(typeName)",
                    "public static let id: EventID = \(Hex.format(event.id, digits: 2))",
                    "public static let name = \"\(event.name)\"",
                    "public static let priority = EventPriority.\(event.priority)",
                ]
                if event.readPrivilege != "view" {
                    header.append(
                        "public static let readPrivilege = Privilege\(try SwiftNaming.privilege(event.readPrivilege, line: event.line))"
                    )
                }
                if event.isFabricSensitive { header.append("public static let isFabricSensitive = true") }
                try types.renderStruct(
                    name: SwiftNaming.typeName(event.name, kind: "Event"), conformance: "ClusterEvent", header: header,
                    fields: event.fields, isFabricScoped: false, into: &writer)
            }
        }
    }

    // MARK: Registry entry

    private func renderInfo(into writer: inout SourceWriter) throws(GeneratorError) {
        let globalIDs = Set(Self.globalAttributes.map(\.id))
        let attributes =
            cluster.attributes.filter { !globalIDs.contains($0.field.id) }.map { ($0.field.id, $0.field.name) }
            + Self.globalAttributes.map { ($0.id, $0.name) }
        let responses = cluster.structs.compactMap { structure -> (UInt64, String)? in
            guard case .response(let id) = structure.kind else { return nil }
            return (id, structure.name)
        }
        writer.line("/// This cluster's names, for `ClusterRegistry`.")
        writer.line("public static let info = ClusterInfo(")
        writer.line("    id: id, name: name, revision: revision,")
        writer.line(
            "    attributes: \(dictionary(attributes.map { ($0.0, SwiftNaming.upperCamel($0.1)) }, digits: 4)),")
        writer.line("    acceptedCommands: \(dictionary(cluster.commands.map { ($0.id, $0.name) }, digits: 2)),")
        writer.line("    generatedCommands: \(dictionary(responses, digits: 2)),")
        writer.line("    events: \(dictionary(cluster.events.map { ($0.id, $0.name) }, digits: 2)),")
        let fields = cluster.events.filter { !$0.fields.isEmpty }.sorted { $0.id < $1.id }.map { event in
            "\(Hex.format(event.id, digits: 2)): "
                + dictionary(event.fields.map { ($0.id, SwiftNaming.member($0.name)) }, digits: 0)
        }
        writer.line("    eventFields: " + (fields.isEmpty ? "[:]" : "[" + fields.joined(separator: ", ") + "]") + ",")
        var requests: [String] = []
        for command in cluster.commands.sorted(by: { $0.id < $1.id }) {
            let fields = try requestFields(of: command).fields
            guard !fields.isEmpty else { continue }
            let infos = try fields.map { field throws(GeneratorError) in try resolver.fieldInfo(field, in: cluster) }
            requests.append("\(Hex.format(command.id, digits: 2)): [\(infos.joined(separator: ", "))]")
        }
        writer.line(
            "    commandFields: " + (requests.isEmpty ? "[:]" : "[" + requests.joined(separator: ", ") + "]") + ",")
        var responseInfos: [String] = []
        for structure in cluster.structs {
            guard case .response(let id) = structure.kind, !structure.fields.isEmpty else { continue }
            let infos = try structure.fields.map { field throws(GeneratorError) in
                try resolver.fieldInfo(field, in: cluster)
            }
            responseInfos.append("\(Hex.format(id, digits: 2)): [\(infos.joined(separator: ", "))]")
        }
        writer.line(
            "    responseFields: "
                + (responseInfos.isEmpty ? "[:]" : "[" + responseInfos.sorted().joined(separator: ", ") + "]") + ",")
        var writable: [String] = []
        for attribute in cluster.attributes.sorted(by: { $0.field.id < $1.field.id })
        where !attribute.isReadOnly && !globalIDs.contains(attribute.field.id) {
            writable.append(
                "\(Hex.format(attribute.field.id, digits: 4)): \(try resolver.writableAttribute(attribute, in: cluster))"
            )
        }
        writer.line(
            "    writableAttributes: " + (writable.isEmpty ? "[:]" : "[" + writable.joined(separator: ", ") + "]") + ","
        )
        let timed = cluster.commands.filter(\.isTimed).map { Hex.format($0.id, digits: 2) }.sorted()
        writer.line("    timedCommands: [" + timed.joined(separator: ", ") + "],")
        var privileged: [String] = []
        for command in cluster.commands.sorted(by: { $0.id < $1.id }) where command.invokePrivilege != "operate" {
            privileged.append(
                "\(Hex.format(command.id, digits: 2)): \(try SwiftNaming.privilege(command.invokePrivilege, line: command.line))"
            )
        }
        writer.line(
            "    commandPrivileges: " + (privileged.isEmpty ? "[:]" : "[" + privileged.joined(separator: ", ") + "]"))
        writer.line(")")
    }

    private func dictionary(_ entries: [(UInt64, String)], digits: Int) -> String {
        guard !entries.isEmpty else { return "[:]" }
        return "["
            + entries.sorted { $0.0 < $1.0 }.map { "\(key($0.0, digits: digits)): \"\($0.1)\"" }.joined(
                separator: ", ") + "]"
    }

    /// IDs in hex with their width; a field's context tag (`digits` 0) in decimal, as the IDL writes it.
    private func key(_ id: UInt64, digits: Int) -> String {
        digits == 0 ? "\(id)" : Hex.format(id, digits: digits)
    }

    // MARK: Values

    private func commandID(_ id: UInt64, line: Int) throws(GeneratorError) -> String {
        guard id <= UInt64(UInt32.max) else {
            throw .semantic(line: line, message: "command ID \(id) does not fit 32 bits")
        }
        return Hex.format(id, digits: 2)
    }
}
