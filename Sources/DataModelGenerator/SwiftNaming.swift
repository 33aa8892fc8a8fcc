/// Turns IDL and XML names into Swift identifiers.
enum SwiftNaming {
    /// An IDL privilege (`access(write: administer)`) as the `Privilege` case it is.
    static func privilege(_ name: String, line: Int) throws(GeneratorError) -> String {
        switch name {
        case "view": ".view"
        case "proxy_view": ".proxyView"
        case "operate": ".operate"
        case "manage": ".manage"
        case "administer": ".administer"
        default: throw .semantic(line: line, message: "unknown privilege '\(name)'")
        }
    }

    /// A member name: `kDelayedOffFastFade` → `delayedOffFastFade`, `TCAcceptedVersion` → `tcAcceptedVersion`,
    /// `kPASE` → `pase`, `k2G4` → `_2G4`; keywords are escaped with backticks.
    static func member(_ name: String, isConstant: Bool = false) -> String {
        var name = Substring(name)
        if isConstant, name.first == "k", let second = name.dropFirst().first, second.isUppercase || second.isNumber {
            name = name.dropFirst()
        }
        let camel = lowerCamel(name)
        if camel.first?.isNumber == true { return "_" + camel }
        return keywords.contains(camel) ? "`\(camel)`" : camel
    }

    /// An enum constant as the spec names it, for people: the IDL name without its `k` prefix (`kNoFailSafe` → `NoFailSafe`).
    static func displayName(ofConstant name: String) -> String {
        guard name.first == "k", let second = name.dropFirst().first, second.isUppercase || second.isNumber else {
            return name
        }
        return String(name.dropFirst())
    }

    /// A type or display name: the IDL's own name with its first letter capitalised (`onOff` → `OnOff`).
    static func upperCamel(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// A generated type's name: the IDL name, with the kind appended when Swift reserves the name (`Type` → `TypeEnum`).
    static func typeName(_ name: String, kind: String) -> String {
        let name = upperCamel(name)
        return reservedTypeNames.contains(name) ? name + kind : name
    }

    private static let reservedTypeNames: Set<String> = [
        "Type", "Protocol", "Self", "Any", "Sendable", "Hashable", "Error",
    ]

    /// Lower-cases the leading capitals, keeping the last one of an acronym when a word follows it:
    /// `SDPMid` → `sdpMid`, `URLs` → `urls`, `AC41E` → `ac41E`.
    static func lowerCamel(_ name: Substring) -> String {
        let capitals = name.prefix { $0.isUppercase }
        let rest = name.dropFirst(capitals.count)
        if capitals.count <= 1 || rest.isEmpty || rest == "s" || !(rest.first?.isLowercase ?? false) {
            return capitals.lowercased() + rest
        }
        return capitals.dropLast().lowercased() + capitals.suffix(1) + rest
    }

    /// A constant name from words: `On/Off Plug-in Unit` → `onOffPlugInUnit`, `EVSE` → `evse`.
    static func words(_ text: String) -> String {
        let words = text.split { !$0.isLetter && !$0.isNumber }
        guard let first = words.first else { return "_" }
        let head = first.allSatisfy { $0.isUppercase || $0.isNumber } ? first.lowercased() : lowerCamel(first)
        let joined = head + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.first?.isNumber == true ? "_" + joined : joined
    }

    /// How the device-type XML and the IDL are joined: lower-cased, letters and digits only.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as",
        "false",
        "is", "nil", "self", "super", "throws", "true", "try", "await", "any", "some", "Type", "Self", "Any",
        "Protocol",
    ]
}
