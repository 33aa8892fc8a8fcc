/// Recursive-descent parser for the Matter IDL grammar (connectedhomeip's matter_grammar): global enums, bitmaps and
/// structs, cluster blocks, and endpoint blocks (parsed for balance and skipped).
struct IDLParser {
    private let tokens: [IDLToken]
    private var position = 0
    /// The doc comment just read, for the declaration that follows it.
    private var pendingDocumentation: String?

    static func parse(_ text: String) throws(GeneratorError) -> IDLFile {
        var parser = IDLParser(tokens: try IDLLexer.tokenize(text))
        return try parser.parseFile()
    }

    private init(tokens: [IDLToken]) {
        self.tokens = tokens
    }

    // MARK: File and cluster

    private mutating func parseFile() throws(GeneratorError) -> IDLFile {
        var file = IDLFile()
        while true {
            takeDocumentation()
            if current.kind == .end { return file }
            let line = current.line
            let qualifiers = parseQualifiers()
            switch try identifier("a declaration") {
            case "enum":
                try allow(qualifiers, ["shared"] + Self.maturities, for: "an enum", line: line)
                file.enums.append(try parseConstants(line: line))
            case "bitmap":
                try allow(qualifiers, ["shared"] + Self.maturities, for: "a bitmap", line: line)
                file.bitmaps.append(try parseConstants(line: line))
            case "struct":
                file.structs.append(try parseStruct(qualifiers, line: line))
            case "cluster":
                // `client`/`server` prefix clusters in older IDL files.
                try allow(qualifiers, ["client", "server"] + Self.maturities, for: "a cluster", line: line)
                file.clusters.append(try parseCluster(qualifiers, line: line))
            case "endpoint":
                try allow(qualifiers, [], for: "an endpoint", line: line)
                try skipEndpoint()
            case let word:
                throw .syntax(
                    line: line, message: "expected enum, bitmap, struct, cluster or endpoint, found '\(word)'")
            }
        }
    }

    private mutating func parseCluster(_ qualifiers: [String], line: Int) throws(GeneratorError) -> IDLCluster {
        let documentation = pendingDocumentation
        pendingDocumentation = nil
        var cluster = IDLCluster(name: try identifier("a cluster name"), id: 0, line: line)
        cluster.maturity = maturity(qualifiers)
        cluster.documentation = documentation
        try expect("=")
        cluster.id = try number("a cluster ID")
        try expect("{")
        while true {
            takeDocumentation()
            if current.kind == .symbol("}") {
                advance()
                return cluster
            }
            let line = current.line
            let qualifiers = parseQualifiers()
            switch try identifier("a cluster member") {
            case "revision":
                try allow(qualifiers, [], for: "a revision", line: line)
                cluster.revision = try number("a revision")
                try expect(";")
            case "enum":
                try allow(qualifiers, ["shared"] + Self.maturities, for: "an enum", line: line)
                cluster.enums.append(try parseConstants(line: line))
            case "bitmap":
                try allow(qualifiers, ["shared"] + Self.maturities, for: "a bitmap", line: line)
                cluster.bitmaps.append(try parseConstants(line: line))
            case "struct":
                cluster.structs.append(try parseStruct(qualifiers, line: line))
            case "attribute":
                try allow(
                    qualifiers, ["readonly", "writeonly", "timedwrite"] + Self.maturities, for: "an attribute",
                    line: line)
                cluster.attributes.append(try parseAttribute(qualifiers, line: line))
            case "command":
                try allow(qualifiers, ["timed", "fabric"] + Self.maturities, for: "a command", line: line)
                cluster.commands.append(try parseCommand(qualifiers, line: line))
            case "event":
                try allow(
                    qualifiers, Self.priorities + ["fabric_sensitive"] + Self.maturities, for: "an event", line: line)
                cluster.events.append(try parseEvent(qualifiers, line: line))
            case let word:
                throw .syntax(
                    line: line,
                    message: "expected revision, enum, bitmap, struct, attribute, command or event, found '\(word)'")
            }
        }
    }

    // MARK: Types

    private mutating func parseConstants(line: Int) throws(GeneratorError) -> IDLConstants {
        let name = try identifier("a type name")
        try expect(":")
        var constants = IDLConstants(name: name, baseType: try identifier("a base type"), entries: [], line: line)
        try expect("{")
        while true {
            takeDocumentation()
            if current.kind == .symbol("}") {
                advance()
                return constants
            }
            let entryName = try identifier("a constant name")
            try expect("=")
            constants.entries.append(.init(name: entryName, value: try number("a constant value")))
            try skipAnnotations()
            try expect(";")
        }
    }

    private mutating func parseStruct(_ qualifiers: [String], line: Int) throws(GeneratorError) -> IDLStruct {
        try allow(
            qualifiers, ["shared", "fabric_scoped", "request", "response"] + Self.maturities, for: "a struct",
            line: line)
        let name = try identifier("a struct name")
        var kind = IDLStruct.Kind.plain
        if qualifiers.contains("response") {
            try expect("=")
            kind = .response(id: try number("a response command ID"))
        } else if qualifiers.contains("request") {
            kind = .request
        }
        return IDLStruct(
            name: name, kind: kind, isFabricScoped: qualifiers.contains("fabric_scoped"),
            fields: try parseFieldBlock(), line: line)
    }

    private mutating func parseFieldBlock() throws(GeneratorError) -> [IDLField] {
        try expect("{")
        var fields: [IDLField] = []
        while true {
            takeDocumentation()
            if current.kind == .symbol("}") {
                advance()
                return fields
            }
            let line = current.line
            let qualifiers = parseQualifiers()
            try allow(
                qualifiers, ["optional", "nullable", "fabric_sensitive"] + Self.maturities, for: "a field", line: line)
            var field = try parseField(line: line)
            field.isOptional = qualifiers.contains("optional")
            field.isNullable = qualifiers.contains("nullable")
            field.isFabricSensitive = qualifiers.contains("fabric_sensitive")
            field.maturity = maturity(qualifiers)
            fields.append(field)
        }
    }

    /// `type name[] = id;` (the qualifiers before it are the caller's).
    private mutating func parseField(line: Int) throws(GeneratorError) -> IDLField {
        var type = IDLType(name: try identifier("a type"))
        if current.kind == .symbol("<") {
            advance()
            type.maxLength = try number("a length bound")
            try expect(">")
        }
        let name = try identifier("a field name")
        if current.kind == .symbol("[") {
            advance()
            try expect("]")
            type.isList = true
        }
        try expect("=")
        let id = try number("an ID")
        try skipAnnotations()
        try expect(";")
        return IDLField(name: name, type: type, id: id, line: line)
    }

    // MARK: Attributes, commands, events

    private mutating func parseAttribute(_ qualifiers: [String], line: Int) throws(GeneratorError) -> IDLAttribute {
        var attribute = IDLAttribute(field: IDLField(name: "", type: IDLType(name: ""), id: 0, line: line))
        attribute.isReadOnly = qualifiers.contains("readonly")
        attribute.isWriteOnly = qualifiers.contains("writeonly")
        attribute.requiresTimedWrite = qualifiers.contains("timedwrite")
        for (role, privilege) in try parseAccess(roles: ["read", "write"]) {
            if role == "read" { attribute.readPrivilege = privilege } else { attribute.writePrivilege = privilege }
        }
        let fieldQualifiers = parseQualifiers()
        try allow(fieldQualifiers, ["optional", "nullable"], for: "an attribute's type", line: line)
        attribute.field = try parseField(line: line)
        attribute.field.isOptional = fieldQualifiers.contains("optional")
        attribute.field.isNullable = fieldQualifiers.contains("nullable")
        attribute.field.maturity = maturity(qualifiers)
        return attribute
    }

    /// `command access(invoke: p) Name(Request): Response = id;`
    private mutating func parseCommand(_ qualifiers: [String], line: Int) throws(GeneratorError) -> IDLCommand {
        let documentation = pendingDocumentation
        pendingDocumentation = nil
        let access = try parseAccess(roles: ["invoke"])
        var command = IDLCommand(name: try identifier("a command name"), output: "", id: 0, line: line)
        command.invokePrivilege = access.first?.privilege ?? command.invokePrivilege
        command.isTimed = qualifiers.contains("timed")
        command.isFabricScoped = qualifiers.contains("fabric")
        command.maturity = maturity(qualifiers)
        command.documentation = documentation
        try expect("(")
        if current.kind != .symbol(")") {
            command.input = try identifier("a request struct name")
        }
        try expect(")")
        try expect(":")
        command.output = try identifier("a response struct name or DefaultSuccess")
        try expect("=")
        command.id = try number("a command ID")
        try expect(";")
        return command
    }

    private mutating func parseEvent(_ qualifiers: [String], line: Int) throws(GeneratorError) -> IDLEvent {
        pendingDocumentation = nil
        let priorities = qualifiers.filter(Self.priorities.contains)
        guard priorities.count == 1, let priority = priorities.first else {
            throw .syntax(line: line, message: "an event needs exactly one priority (critical, info or debug)")
        }
        let access = try parseAccess(roles: ["read"])
        let name = try identifier("an event name")
        try expect("=")
        let id = try number("an event ID")
        var event = IDLEvent(name: name, id: id, priority: priority, fields: try parseFieldBlock(), line: line)
        event.readPrivilege = access.first?.privilege ?? event.readPrivilege
        event.isFabricSensitive = qualifiers.contains("fabric_sensitive")
        event.maturity = maturity(qualifiers)
        return event
    }

    /// `access(read: view, write: manage)`, when present.
    private mutating func parseAccess(roles: Set<String>) throws(GeneratorError) -> [(role: String, privilege: String)]
    {
        guard current.kind == .identifier("access") else { return [] }
        advance()
        try expect("(")
        var grants: [(role: String, privilege: String)] = []
        repeat {
            if !grants.isEmpty { advance() }
            let line = current.line
            let role = try identifier("an access role")
            guard roles.contains(role) else {
                throw .syntax(
                    line: line,
                    message: "access role '\(role)' is not one of \(roles.sorted().joined(separator: ", ")) here")
            }
            try expect(":")
            let privilegeLine = current.line
            let privilege = try identifier("a privilege")
            guard Self.privileges.contains(privilege) else {
                throw .syntax(line: privilegeLine, message: "unknown privilege '\(privilege)'")
            }
            grants.append((role, privilege))
        } while current.kind == .symbol(",")
        try expect(")")
        return grants
    }

    // MARK: Endpoint blocks and annotations

    /// `endpoint N { … }`: instance configuration the generator has no use for.
    private mutating func skipEndpoint() throws(GeneratorError) {
        _ = try number("an endpoint number")
        let line = current.line
        try expect("{")
        var depth = 1
        while depth > 0 {
            switch current.kind {
            case .symbol("{"): depth += 1
            case .symbol("}"): depth -= 1
            case .end: throw .syntax(line: line, message: "endpoint block opened here is never closed")
            default: break
            }
            advance()
        }
    }

    /// `[spec_name = "…"]` after a constant or field: documentation the generated code does not need.
    private mutating func skipAnnotations() throws(GeneratorError) {
        guard current.kind == .symbol("[") else { return }
        let line = current.line
        while current.kind != .symbol("]") {
            if current.kind == .end || current.kind == .symbol(";") {
                throw .syntax(line: line, message: "annotation opened here is never closed")
            }
            advance()
        }
        advance()
    }

    // MARK: Tokens

    private static let maturities = ["provisional", "internal", "deprecated"]
    private static let priorities = ["critical", "info", "debug"]
    private static let privileges: Set<String> = ["view", "proxy_view", "operate", "manage", "administer"]
    private static let qualifierWords: Set<String> = [
        "provisional", "internal", "deprecated", "shared", "fabric_scoped", "request", "response", "readonly",
        "writeonly",
        "timedwrite", "timed", "fabric", "optional", "nullable", "fabric_sensitive", "critical", "info", "debug",
        "client", "server",
    ]

    private var current: IDLToken { tokens[min(position, tokens.count - 1)] }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private mutating func takeDocumentation() {
        while case .documentation(let text) = current.kind {
            pendingDocumentation = text
            advance()
        }
    }

    /// The qualifier words before a declaration, skipping documentation between them.
    private mutating func parseQualifiers() -> [String] {
        var qualifiers: [String] = []
        while true {
            takeDocumentation()
            guard case .identifier(let word) = current.kind, Self.qualifierWords.contains(word),
                position + 1 < tokens.count, case .identifier = tokens[position + 1].kind
            else {
                return qualifiers
            }
            qualifiers.append(word)
            advance()
        }
    }

    private func allow(
        _ qualifiers: [String], _ allowed: [String], for declaration: String, line: Int
    ) throws(GeneratorError) {
        if let wrong = qualifiers.first(where: { !allowed.contains($0) }) {
            throw .syntax(line: line, message: "'\(wrong)' cannot qualify \(declaration)")
        }
    }

    private func maturity(_ qualifiers: [String]) -> IDLMaturity {
        qualifiers.lazy.compactMap(IDLMaturity.init(rawValue:)).first ?? .stable
    }

    private mutating func identifier(_ expected: String) throws(GeneratorError) -> String {
        guard case .identifier(let word) = current.kind else { throw unexpected(expected) }
        advance()
        return word
    }

    private mutating func number(_ expected: String) throws(GeneratorError) -> UInt64 {
        guard case .number(let value) = current.kind else { throw unexpected(expected) }
        advance()
        return value
    }

    private mutating func expect(_ symbol: Character) throws(GeneratorError) {
        guard current.kind == .symbol(symbol) else { throw unexpected("'\(symbol)'") }
        advance()
    }

    private func unexpected(_ expected: String) -> GeneratorError {
        let found =
            switch current.kind {
            case .identifier(let word): "'\(word)'"
            case .number(let value): "number \(value)"
            case .string(let text): "string \"\(text)\""
            case .symbol(let symbol): "'\(symbol)'"
            case .documentation: "a doc comment"
            case .end: "end of file"
            }
        return .syntax(line: current.line, message: "expected \(expected), found \(found)")
    }
}
