/// One output file: its name in the output folder and its Swift source.
struct GeneratedFile: Equatable {
    var name: String
    var contents: String
}

/// Turns a parsed IDL into Swift files: one per cluster, one for the global types they use, and the registry.
struct ClusterGenerator {
    let file: IDLFile
    /// Where the input came from, for the header: "controller-clusters.matter (connectedhomeip, Apache-2.0)".
    let source: String
    /// A vendor namespace wrapping every declaration (`AcmeClusters.WidgetCluster`); nil for the standard model,
    /// whose clusters are top level and whose registry is `MatterClusters`.
    let namespace: String?

    var registryName: String { namespace ?? "MatterClusters" }

    /// `clusterNames` selects clusters by IDL name; nil generates every cluster of the file.
    func generate(clusterNames: [String]?) throws(GeneratorError) -> [GeneratedFile] {
        let resolver = SwiftTypeResolver(file: file, namespace: namespace)
        let clusters = try select(clusterNames).sorted { $0.id < $1.id }
        var files: [GeneratedFile] = []
        for cluster in clusters {
            let renderer = ClusterRenderer(cluster: cluster, resolver: resolver)
            files.append(
                try wrap(renderer.typeName) { writer throws(GeneratorError) in try renderer.render(into: &writer) })
        }
        let globals = try resolver.globalTypesUsed(by: clusters)
        if !globals.isEmpty {
            let types = TypeRenderer(resolver: resolver, cluster: nil)
            files.append(
                try wrap(registryName + "GlobalTypes") { writer throws(GeneratorError) in
                    writer.line("// Matter data types shared by clusters (the IDL's global scope).")
                    var first = true
                    func separate() {
                        if !first { writer.line() }
                        first = false
                    }
                    for constants in file.enums where globals.contains(constants.name) {
                        separate()
                        try types.renderEnum(constants, into: &writer)
                    }
                    for constants in file.bitmaps where globals.contains(constants.name) {
                        separate()
                        try types.renderBitmap(constants, into: &writer)
                    }
                    for structure in file.structs where globals.contains(structure.name) {
                        separate()
                        try types.renderStruct(
                            name: SwiftNaming.typeName(structure.name, kind: "Struct"),
                            conformance: "Hashable, Sendable, TLVCodable",
                            header: [], fields: structure.fields, isFabricScoped: structure.isFabricScoped,
                            into: &writer)
                    }
                })
        }
        files.append(registry(clusters, resolver: resolver))
        return files
    }

    /// A Home API trait per selected cluster (see `TraitRenderer`); in a vendor namespace the traits sit in it too.
    func generateTraits(clusterNames: [String]?) throws(GeneratorError) -> [GeneratedFile] {
        let resolver = SwiftTypeResolver(file: file, namespace: namespace)
        let traits = try select(clusterNames).sorted { $0.id < $1.id }.map { cluster throws(GeneratorError) in
            let trait = TraitRenderer(
                renderer: ClusterRenderer(cluster: cluster, resolver: resolver), resolver: resolver)
            var writer = SourceWriter()
            writer.line(header)
            writer.line()
            if let namespace {
                writer.line("import HomeAPI")
                writer.line("import MatterDataModel")
                writer.line()
                try writer.block("extension \(namespace)") { writer throws(GeneratorError) in
                    try trait.render(into: &writer)
                }
            } else {
                writer.line("import MatterDataModel")
                writer.line()
                try trait.render(into: &writer)
            }
            return GeneratedFile(name: trait.typeName + ".swift", contents: writer.text)
        }
        // A vendor's traits already live in its namespace; the standard ones also get the one the Home APIs'
        // documentation writes them in (`Matter.OnOffTrait`), as aliases so both spellings are one type.
        guard namespace == nil else { return traits }
        var writer = SourceWriter()
        writer.line(header)
        writer.line()
        writer.line(
            "/// The standard traits as the Home APIs' documentation names them: `Matter.OnOffTrait` is `OnOffTrait`.")
        try writer.block("public enum Matter") { writer throws(GeneratorError) in
            for file in traits {
                let name = String(file.name.dropLast(".swift".count))
                writer.line("public typealias \(name) = HomeAPI.\(name)")
            }
        }
        return traits + [GeneratedFile(name: "Matter.swift", contents: writer.text)]
    }

    /// The clusters `clusterNames` selects (every cluster of the file when nil), in ID order.
    func selected(_ clusterNames: [String]?) throws(GeneratorError) -> [IDLCluster] {
        try select(clusterNames).sorted { $0.id < $1.id }
    }

    private func select(_ names: [String]?) throws(GeneratorError) -> [IDLCluster] {
        var seen: Set<String> = []
        for cluster in file.clusters where !seen.insert(cluster.name).inserted {
            throw .semantic(line: cluster.line, message: "cluster \(cluster.name) is defined twice")
        }
        guard let names else { return file.clusters }
        return try names.map { name throws(GeneratorError) in
            guard let cluster = file.clusters.first(where: { $0.name == name }) else {
                throw .usage("--clusters: the IDL has no cluster named '\(name)'")
            }
            return cluster
        }
    }

    /// The registry: `<registryName>.all`, every generated cluster's `ClusterInfo` by ID.
    private func registry(_ clusters: [IDLCluster], resolver: SwiftTypeResolver) -> GeneratedFile {
        var writer = SourceWriter()
        writer.line(header)
        writer.line()
        if namespace != nil {
            writer.line("import MatterDataModel")
            writer.line()
        }
        writer.line("/// The generated clusters, in ID order.")
        writer.line("public enum \(registryName) {")
        writer.line("    public static let all: [ClusterInfo] = [")
        for cluster in clusters {
            writer.line("        \(resolver.clusterTypeName(cluster)).info,")
        }
        writer.line("    ]")
        writer.line("}")
        return GeneratedFile(name: registryName + ".swift", contents: writer.text)
    }

    var header: String {
        "// Generated by datamodel-generator from \(source); do not edit."
    }

    /// A file with the header and imports whose declarations sit in the vendor namespace when there is one.
    private func wrap(
        _ name: String, _ body: (inout SourceWriter) throws(GeneratorError) -> Void
    ) throws(GeneratorError) -> GeneratedFile {
        var writer = SourceWriter()
        writer.line(header)
        writer.line()
        writer.line("import MatterTLV")
        if let namespace {
            writer.line("import MatterDataModel")
            writer.line()
            try writer.block("extension \(namespace)", body)
        } else {
            writer.line()
            try body(&writer)
        }
        return GeneratedFile(name: name + ".swift", contents: writer.text)
    }
}
