/// Writes the Swift for IDL enums, bitmaps and structs (commands, responses and events are structs too).
struct TypeRenderer {
    let resolver: SwiftTypeResolver
    /// The cluster whose types these are; nil for global types.
    let cluster: IDLCluster?

    /// An open enum: a struct over the base integer with a constant per value.
    func renderEnum(_ constants: IDLConstants, into writer: inout SourceWriter) throws(GeneratorError) {
        try renderConstants(constants, protocolName: "ClusterEnum", kind: "Enum", into: &writer)
    }

    /// A bitmap: an option set over the base integer with a constant per bit (or multi-bit field).
    func renderBitmap(_ constants: IDLConstants, into writer: inout SourceWriter) throws(GeneratorError) {
        try renderConstants(constants, protocolName: "ClusterBitmap", kind: "Bitmap", into: &writer)
    }

    private func renderConstants(
        _ constants: IDLConstants, protocolName: String, kind: String,
        into writer: inout SourceWriter
    ) throws(GeneratorError) {
        guard let rawType = IDLBaseTypes.integerType(constants.baseType), rawType.hasPrefix("UInt") else {
            throw .semantic(
                line: constants.line,
                message: "\(constants.name): base type '\(constants.baseType)' is not an enum or bitmap type")
        }
        let maximum: UInt64 =
            switch rawType {
            case "UInt8": UInt64(UInt8.max)
            case "UInt16": UInt64(UInt16.max)
            case "UInt32": UInt64(UInt32.max)
            default: UInt64.max
            }
        var names: Set<String> = []
        try writer.block("public struct \(SwiftNaming.typeName(constants.name, kind: kind)): \(protocolName)") {
            writer throws(GeneratorError) in
            writer.line("public let rawValue: \(rawType)")
            writer.line("public init(rawValue: \(rawType)) { self.rawValue = rawValue }")
            if !constants.entries.isEmpty { writer.line() }
            for entry in constants.entries {
                let name = SwiftNaming.member(entry.name, isConstant: true)
                guard entry.value <= maximum else {
                    throw .semantic(
                        line: constants.line,
                        message: "\(constants.name).\(entry.name) = \(entry.value) does not fit \(constants.baseType)")
                }
                guard names.insert(name).inserted else {
                    throw .semantic(
                        line: constants.line, message: "\(constants.name): two constants are named \(name) in Swift")
                }
                let value = protocolName == "ClusterBitmap" ? Hex.format(entry.value, digits: 1) : String(entry.value)
                writer.line("public static let \(name) = Self(rawValue: \(value))")
            }
            if protocolName == "ClusterEnum" {
                // The first name of a value wins: a dictionary literal with a repeated key would trap at run time.
                var named: Set<UInt64> = []
                let names = constants.entries.filter { named.insert($0.value).inserted }
                    .map { "\($0.value): \"\(SwiftNaming.displayName(ofConstant: $0.name))\"" }
                writer.line()
                writer.line(
                    "public static let names: [\(rawType): String] = [\(names.isEmpty ? ":" : names.joined(separator: ", "))]"
                )
            }
        }
    }

    /// A TLV structure: stored fields, a memberwise initialiser, and TLV coding at the fields' context tags.
    /// `header` lines (typealiases, static IDs) go first; `conformance` is the protocol list.
    func renderStruct(
        name: String, conformance: String, header: [String], fields: [IDLField], isFabricScoped: Bool,
        into writer: inout SourceWriter
    ) throws(GeneratorError) {
        let members = try fields.map { field throws(GeneratorError) in
            try Member(field: field, isFabricScoped: isFabricScoped, resolver: resolver, cluster: cluster)
        }
        var seenNames: Set<String> = []
        var seenTags: Set<UInt64> = []
        for member in members {
            guard seenNames.insert(member.name).inserted, seenTags.insert(member.field.id).inserted else {
                throw .semantic(
                    line: member.field.line, message: "\(name): field \(member.field.name) repeats a name or tag")
            }
            guard member.field.id <= UInt64(UInt8.max) else {
                throw .semantic(
                    line: member.field.line,
                    message: "\(name).\(member.field.name): tag \(member.field.id) is not a context tag (0…255)")
            }
        }
        try writer.block("public struct \(name): \(conformance)") { writer throws(GeneratorError) in
            header.forEach { writer.line($0) }
            if !header.isEmpty { writer.line() }
            for member in members {
                writer.line("public var \(member.name): \(member.type)")
            }
            if !members.isEmpty { writer.line() }
            guard !members.isEmpty else {
                writer.line("public init() {}")
                writer.line("public func tlvValue() -> TLVValue { .structure([]) }")
                writer.line("public init(tlv element: TLVElement) throws(TLVError) { _ = try element.structure() }")
                return
            }
            renderInitialiser(members, into: &writer)
            writer.line()
            renderEncoding(members, into: &writer)
            writer.line()
            renderDecoding(members, into: &writer)
        }
    }

    /// The memberwise initialiser's parameters of a struct with these fields: `level: UInt8, optionsMask: … = nil`.
    func initialiserParameters(
        _ fields: [IDLField], isFabricScoped: Bool
    ) throws(GeneratorError) -> [(name: String, declaration: String)] {
        try fields.map { field throws(GeneratorError) in
            let member = try Member(field: field, isFabricScoped: isFabricScoped, resolver: resolver, cluster: cluster)
            return (member.name, "\(member.name): \(member.type)\(member.isOptional ? " = nil" : "")")
        }
    }

    private func renderInitialiser(_ members: [Member], into writer: inout SourceWriter) {
        let parameters = members.map { "\($0.name): \($0.type)\($0.isOptional ? " = nil" : "")" }.joined(
            separator: ", ")
        writer.line("public init(\(parameters)) {")
        for member in members {
            writer.line("    self.\(member.name) = \(member.name)")
        }
        writer.line("}")
    }

    private func renderEncoding(_ members: [Member], into writer: inout SourceWriter) {
        writer.line("public func tlvValue() -> TLVValue {")
        writer.line("    var members: [TLVElement] = []")
        for member in members {
            let tag = member.field.id
            if member.isOptional {
                writer.line(
                    "    if let value = self.\(member.name) { members.append(TLVElement(tag: .context(\(tag)), value.tlvValue())) }"
                )
            } else {
                writer.line("    members.append(TLVElement(tag: .context(\(tag)), self.\(member.name).tlvValue()))")
            }
        }
        writer.line("    return .structure(members)")
        writer.line("}")
    }

    private func renderDecoding(_ members: [Member], into writer: inout SourceWriter) {
        writer.line("public init(tlv element: TLVElement) throws(TLVError) {")
        writer.line("    let fields = try element.structure()")
        for member in members {
            let method = member.isOptional ? "optional" : "required"
            writer.line(
                "    self.\(member.name) = try fields.\(method)(\(member.field.id), as: \(member.decodedType).self)")
        }
        writer.line("}")
    }

    /// One struct field as Swift sees it.
    private struct Member {
        let field: IDLField
        let name: String
        let type: String
        /// The type `TLVStructure.required/optional` decodes (without the outer `?`).
        let decodedType: String
        let isOptional: Bool

        init(
            field: IDLField, isFabricScoped: Bool, resolver: SwiftTypeResolver, cluster: IDLCluster?
        ) throws(GeneratorError) {
            self.field = field
            name = SwiftNaming.member(field.name)
            // Matter Core §7.5 Fabric (fabric-scoped data): clients omit the fabric index when writing, and servers omit
            // fabric-sensitive fields from other fabrics' entries, so both may be absent.
            let isFabricIndex = field.type.name == "fabric_idx" && field.id == Self.fabricIndexTag
            isOptional = field.isOptional || (isFabricScoped && (field.isFabricSensitive || isFabricIndex))
            decodedType = try resolver.swiftType(of: field, in: cluster, optional: false)
            type = isOptional ? decodedType + "?" : decodedType
        }

        /// Matter Core §7.5 Fabric: the FabricIndex field of every fabric-scoped struct has tag 254.
        static let fabricIndexTag: UInt64 = 254
    }
}

/// Hex literals for generated IDs: at least `digits` digits, upper case.
enum Hex {
    static func format(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
