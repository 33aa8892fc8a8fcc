import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterTLV

/// Command payloads, command responses and event data of the Matter-server API: keyed by the data model's field
/// names (`level`, `transitionTime`; facts §3), which the generated `FieldInfo` of each command ties to tags and TLV
/// types. Attribute values are tag-keyed instead (`JSONValue(_:octetStrings:)` renders them; `encode(_:as:)` reads a
/// value to write).
package enum MatterServerPayload {
    /// How a struct's members are keyed: by field name (command payloads), or, in a value to write, by context tag as
    /// a string as attribute values are reported, a field name taken too (python-matter-server takes either).
    package enum Keys {
        case names, tagsOrNames
    }

    package struct Invalid: Error, CustomStringConvertible {
        package let description: String
    }

    /// A command's fields as a TLV structure. Every field the command requires must be there (the clients send
    /// defaults too); an optional one may be left out, a nullable one may be null; a name the command does not have
    /// is refused, so a misspelt field is not silently dropped. An integer must fit its field (`IntegerLimit`); an
    /// enum's value may be given by name; with `knownValuesOnly`, an enum value or bitmap bit the data model does not
    /// know is refused too (what the terminal wants; a Matter-server client may know a newer specification).
    package static func encode(
        _ payload: [String: UntypedJSON], fields: [FieldInfo], keys: Keys = .names, knownValuesOnly: Bool = false
    ) throws(Invalid) -> TLVElement {
        var given: [UInt8: UntypedJSON] = [:]
        for (key, value) in payload.sorted(by: { $0.key < $1.key }) {
            let field =
                keys == .tagsOrNames && !key.isEmpty && key.utf8.allSatisfy({ (0x30...0x39).contains($0) })
                ? fields.first { String($0.tag) == key } : fields.first { $0.name == key }
            guard let field else {
                let known = fields.map { keys == .names ? $0.name : "\($0.tag) \($0.name)" }
                throw Invalid(
                    description:
                        "the \(keys == .names ? "command" : "value") has no field \(key)"
                        + NearMiss.suggestion(for: key, among: fields.map(\.name)) + " "
                        + (known.isEmpty ? "(it takes none)" : "(its fields: " + known.joined(separator: ", ") + ")"))
            }
            guard given.updateValue(value, forKey: field.tag) == nil else {
                throw Invalid(description: "field \(field.name) is given twice, by its tag and by its name")
            }
        }
        var members: [TLVElement] = []
        for field in fields {
            guard let value = given[field.tag] else {
                if field.isOptional { continue }
                throw Invalid(description: "field \(field.name) is missing")
            }
            members.append(
                try element(value, as: field, tag: .context(field.tag), keys: keys, knownValuesOnly: knownValuesOnly))
        }
        return TLVElement(.structure(members))
    }

    /// An attribute value to write, tag-keyed as attribute values are reported.
    package static func encode(
        _ value: UntypedJSON, as attribute: WritableAttribute, knownValuesOnly: Bool = false
    ) throws(Invalid) -> TLVElement {
        if value.isNull {
            guard attribute.isNullable else { throw Invalid(description: "the value may not be null") }
            return TLVElement(.null)
        }
        let rules = Rules(limit: attribute.limit, keys: .tagsOrNames, knownValuesOnly: knownValuesOnly)
        return TLVElement(try encode(value, kind: attribute.kind, what: "the value", rules))
    }

    /// How a value is checked beyond its kind.
    private struct Rules {
        let limit: IntegerLimit?
        let keys: Keys
        let knownValuesOnly: Bool
    }

    private static func element(
        _ value: UntypedJSON, as field: FieldInfo, tag: TLVTag, keys: Keys, knownValuesOnly: Bool
    ) throws(Invalid) -> TLVElement {
        if value.isNull {
            guard field.isNullable || field.isOptional else {
                throw Invalid(description: "field \(field.name) may not be null")
            }
            return TLVElement(tag: tag, .null)
        }
        let rules = Rules(limit: field.limit, keys: keys, knownValuesOnly: knownValuesOnly)
        return TLVElement(tag: tag, try encode(value, kind: field.kind, what: "field \(field.name)", rules))
    }

    private static func encode(
        _ value: UntypedJSON, kind: FieldInfo.Kind, what: String, _ rules: Rules
    ) throws(Invalid) -> TLVValue {
        let keys = rules.keys
        switch (kind, value) {
        case (.bool, .bool(let bool)): return .bool(bool)
        case (.unsigned, .unsigned(let number)):
            if let limit = rules.limit, !limit.admits(unsigned: number, knownValuesOnly: rules.knownValuesOnly) {
                throw Invalid(description: "\(what) is \(limit.description), not \(number)")
            }
            return .unsigned(number)
        case (.unsigned, .string(let name)):
            // An enum's value by its name, in any case.
            guard case .enumeration(_, let names)? = rules.limit,
                let number = names.first(where: { $0.value.lowercased() == name.lowercased() })?.key
            else { throw Invalid(description: "\(what) is \(rules.limit?.description ?? describe(kind)), not \(name)") }
            return .unsigned(number)
        case (.signed, .unsigned(let number)) where number <= UInt64(Int64.max):
            if let limit = rules.limit, !limit.admits(signed: Int64(number)) {
                throw Invalid(description: "\(what) is \(limit.description), not \(number)")
            }
            return .signed(Int64(number))
        case (.signed, .signed(let number)):
            if let limit = rules.limit, !limit.admits(signed: number) {
                throw Invalid(description: "\(what) is \(limit.description), not \(number)")
            }
            return .signed(number)
        case (.float, .unsigned(let number)): return .float(Float(number))
        case (.float, .signed(let number)): return .float(Float(number))
        case (.float, .number(let number)): return .float(Float(number))
        case (.double, .unsigned(let number)): return .double(Double(number))
        case (.double, .signed(let number)): return .double(Double(number))
        case (.double, .number(let number)): return .double(number)
        case (.utf8, .string(let text)): return .utf8(text)
        case (.bytes, .string(let text)):
            guard let bytes = Data(base64Encoded: text) else {
                throw Invalid(description: "\(what) is an octet string: base64 expected")
            }
            return .bytes(Array(bytes))
        case (.structure(let fields), .object(let object)):
            return try encode(object, fields: fields, keys: keys, knownValuesOnly: rules.knownValuesOnly).value
        case (.list(let element), .array(let items)):
            var encoded: [TLVElement] = []
            for item in items { encoded.append(TLVElement(try encode(item, kind: element, what: what, rules))) }
            return .array(encoded)
        default:
            throw Invalid(description: "\(what) is not \(describe(kind))")
        }
    }

    private static func describe(_ kind: FieldInfo.Kind) -> String {
        switch kind {
        case .bool: "a boolean"
        case .unsigned: "an unsigned integer"
        case .signed: "an integer"
        case .float, .double: "a number"
        case .utf8: "a string"
        case .bytes: "a base64 octet string"
        case .structure: "a struct (an object of named fields)"
        case .list: "a list"
        }
    }

    /// A response's (or an event's) fields by name; fields the data model does not name keep their tag as key.
    package static func decode(_ element: TLVElement, fields: [FieldInfo]) -> JSONValue {
        guard case .structure(let members) = element.value else { return JSONValue(element, octetStrings: .base64) }
        return .object(
            members.map { member in
                guard case .context(let tag) = member.tag, let field = fields.first(where: { $0.tag == tag }) else {
                    return ("\(member.tag)", JSONValue(member, octetStrings: .base64))
                }
                if case .structure(let inner) = field.kind { return (field.name, decode(member, fields: inner)) }
                if case .list(.structure(let inner)) = field.kind, case .array(let items) = member.value {
                    return (field.name, .array(items.map { decode($0, fields: inner) }))
                }
                return (field.name, JSONValue(member, octetStrings: .base64))
            })
    }
}
