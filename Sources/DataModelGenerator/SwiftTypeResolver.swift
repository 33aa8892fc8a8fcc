/// Finds the Swift type of an IDL type name: a built-in, a type of the cluster being generated (looked up first, as
/// the IDL scopes names), or a global type of the file.
struct SwiftTypeResolver {
    let file: IDLFile
    /// The vendor namespace that wraps every generated declaration, if any.
    let namespace: String?

    enum Resolution: Equatable {
        case builtin(String)
        /// The IDL name and the generated Swift name of a type the cluster declares.
        case clusterType(String, swift: String)
        case globalType(String, swift: String)
    }

    func clusterTypeName(_ cluster: IDLCluster) -> String {
        qualified(SwiftNaming.upperCamel(cluster.name) + "Cluster")
    }

    func qualified(_ name: String) -> String {
        namespace.map { "\($0).\(name)" } ?? name
    }

    func resolve(_ name: String, in cluster: IDLCluster?, line: Int) throws(GeneratorError) -> Resolution {
        if let cluster,
            let kind = kind(of: name, enums: cluster.enums, bitmaps: cluster.bitmaps, structs: cluster.structs)
        {
            return .clusterType(name, swift: SwiftNaming.typeName(name, kind: kind))
        }
        if let kind = kind(of: name, enums: file.enums, bitmaps: file.bitmaps, structs: file.structs) {
            return .globalType(name, swift: SwiftNaming.typeName(name, kind: kind))
        }
        if let builtin = IDLBaseTypes.swiftType(name) {
            return .builtin(builtin)
        }
        let scope = cluster.map { "cluster \($0.name)" } ?? "the global scope"
        throw .semantic(line: line, message: "unknown type '\(name)' in \(scope)")
    }

    /// The Swift spelling of a resolved type, without list, nullable or optional.
    func swiftName(_ resolution: Resolution, in cluster: IDLCluster?) -> String {
        switch resolution {
        case .builtin(let swift): swift
        case .clusterType(_, let swift): (cluster.map(clusterTypeName) ?? "") + "." + swift
        case .globalType(_, let swift): qualified(swift)
        }
    }

    /// A field's Swift type: `[T]` for lists, `Nullable<T>` for nullable, `T?` for optional (or when `optional` says so).
    func swiftType(of field: IDLField, in cluster: IDLCluster?, optional: Bool) throws(GeneratorError) -> String {
        var type = swiftName(try resolve(field.type.name, in: cluster, line: field.line), in: cluster)
        if field.type.isList { type = "[\(type)]" }
        if field.isNullable { type = "Nullable<\(type)>" }
        return optional ? type + "?" : type
    }

    /// A field as a `FieldInfo` literal: its tag, its IDL name and how it is written in TLV (a struct with its own
    /// fields, which Matter never nests in itself).
    func fieldInfo(_ field: IDLField, in cluster: IDLCluster?) throws(GeneratorError) -> String {
        let flags =
            (field.isNullable ? ", nullable: true" : "") + (field.isOptional ? ", optional: true" : "")
            + (try limit(of: field, in: cluster).map { ", limit: \($0)" } ?? "")
        return "FieldInfo(\(field.id), \"\(field.name)\", \(try kind(of: field, in: cluster))\(flags))"
    }

    /// What an integer field may hold, as an `IntegerLimit` literal: a base type's width or range, a generated
    /// enum's values, a bitmap's width and known bits; nil for a field that is no integer (or any 64-bit one).
    private func limit(of field: IDLField, in cluster: IDLCluster?) throws(GeneratorError) -> String? {
        let resolution = try resolve(field.type.name, in: cluster, line: field.line)
        let constants: (enums: [IDLConstants], bitmaps: [IDLConstants])
        switch resolution {
        case .builtin: return IDLBaseTypes.limit(field.type.name)
        case .clusterType: constants = (cluster?.enums ?? [], cluster?.bitmaps ?? [])
        case .globalType: constants = (file.enums, file.bitmaps)
        }
        if constants.enums.contains(where: { $0.name == field.type.name }) {
            return ".enumeration(\(swiftName(resolution, in: cluster)).self)"
        }
        guard let bitmap = constants.bitmaps.first(where: { $0.name == field.type.name }) else { return nil }
        let bits: Int
        switch IDLBaseTypes.integerType(bitmap.baseType) {
        case "UInt8"?: bits = 8
        case "UInt16"?: bits = 16
        case "UInt32"?: bits = bitmap.baseType.lowercased() == "bitmap24" ? 24 : 32
        default: return nil
        }
        let mask = bitmap.entries.reduce(UInt64(0)) { $0 | $1.value }
        return ".bitmap(bits: \(bits), mask: 0x\(String(mask, radix: 16, uppercase: true)))"
    }

    /// A writable attribute as a `WritableAttribute` literal: how its value is written in TLV, and whether the
    /// write must be timed.
    func writableAttribute(_ attribute: IDLAttribute, in cluster: IDLCluster) throws(GeneratorError) -> String {
        let flags =
            (attribute.field.isNullable ? ", nullable: true" : "")
            + (attribute.requiresTimedWrite ? ", timed: true" : "")
            + (attribute.writePrivilege == "operate"
                ? ""
                : ", privilege: \(try SwiftNaming.privilege(attribute.writePrivilege, line: attribute.field.line))")
            + (try limit(of: attribute.field, in: cluster).map { ", limit: \($0)" } ?? "")
        return "WritableAttribute(\(try kind(of: attribute.field, in: cluster))\(flags))"
    }

    private func kind(of field: IDLField, in cluster: IDLCluster?) throws(GeneratorError) -> String {
        let kind = try wireKind(field.type.name, in: cluster, line: field.line)
        return field.type.isList ? ".list(\(kind))" : kind
    }

    private func wireKind(_ name: String, in cluster: IDLCluster?, line: Int) throws(GeneratorError) -> String {
        switch try resolve(name, in: cluster, line: line) {
        case .builtin(let swift):
            switch swift {
            case "Bool": return ".bool"
            case "Float": return ".float"
            case "Double": return ".double"
            case "String": return ".utf8"
            case "[UInt8]": return ".bytes"
            case _ where swift.hasPrefix("Int"): return ".signed"
            default: return ".unsigned"  // UIntN and the ID types
            }
        case .clusterType(let idlName, _), .globalType(let idlName, _):
            let structure =
                cluster?.structs.first { $0.name == idlName } ?? file.structs.first { $0.name == idlName }
            guard let structure else { return ".unsigned" }  // an enum or a bitmap
            let scope = cluster?.structs.contains { $0.name == idlName } == true ? cluster : nil
            let fields = try structure.fields.map { field throws(GeneratorError) in try fieldInfo(field, in: scope) }
            return ".structure([\(fields.joined(separator: ", "))])"
        }
    }

    /// The global types the given clusters use, directly or through other global types, by name.
    func globalTypesUsed(by clusters: [IDLCluster]) throws(GeneratorError) -> Set<String> {
        var used: Set<String> = []
        var pending: [IDLField] = []
        for cluster in clusters {
            let fields =
                cluster.structs.flatMap(\.fields) + cluster.events.flatMap(\.fields) + cluster.attributes.map(\.field)
            for field in fields {
                if case .globalType(let name, _) = try resolve(field.type.name, in: cluster, line: field.line) {
                    used.insert(name)
                }
            }
        }
        pending = file.structs.filter { used.contains($0.name) }.flatMap(\.fields)
        while let field = pending.popLast() {
            if case .globalType(let name, _) = try resolve(field.type.name, in: nil, line: field.line),
                !used.contains(name)
            {
                used.insert(name)
                pending += file.structs.filter { $0.name == name }.flatMap(\.fields)
            }
        }
        return used
    }

    /// "Enum", "Bitmap" or "Struct" when the scope declares the name.
    private func kind(of name: String, enums: [IDLConstants], bitmaps: [IDLConstants], structs: [IDLStruct]) -> String?
    {
        if enums.contains(where: { $0.name == name }) { return "Enum" }
        if bitmaps.contains(where: { $0.name == name }) { return "Bitmap" }
        return structs.contains { $0.name == name } ? "Struct" : nil
    }
}
