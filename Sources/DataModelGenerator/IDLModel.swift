// The parsed Matter IDL (.matter): what the generator needs of it, in the order the file declares it.

/// A declaration's API stability prefix.
enum IDLMaturity: String, Equatable, Sendable {
    case stable, provisional, `internal`, deprecated
}

/// An enum or bitmap: named constants over an integer base type (`enum8`, `bitmap32`, …).
struct IDLConstants: Equatable, Sendable {
    var name: String
    var baseType: String
    var entries: [Entry]
    var line: Int

    struct Entry: Equatable, Sendable {
        var name: String
        var value: UInt64
    }
}

/// A data type as written: `int16u`, `char_string<32>`, `SemanticTagStruct[]`.
struct IDLType: Equatable, Sendable {
    var name: String
    var isList = false
    /// The `<N>` bound of strings, when given.
    var maxLength: UInt64?
}

/// A struct, event or attribute member: its type, name, ID (tag) and qualities.
struct IDLField: Equatable, Sendable {
    var name: String
    var type: IDLType
    var id: UInt64
    var isOptional = false
    var isNullable = false
    var isFabricSensitive = false
    var maturity = IDLMaturity.stable
    var line: Int
}

struct IDLStruct: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case plain
        case request
        /// A response struct carries the ID of the response command.
        case response(id: UInt64)
    }

    var name: String
    var kind = Kind.plain
    var isFabricScoped = false
    var fields: [IDLField]
    var line: Int
}

struct IDLAttribute: Equatable, Sendable {
    var field: IDLField
    var isReadOnly = false
    var isWriteOnly = false
    var readPrivilege = "view"
    var writePrivilege = "operate"
    var requiresTimedWrite = false
}

struct IDLCommand: Equatable, Sendable {
    var name: String
    /// The request struct; nil for `Name()`.
    var input: String?
    /// A response struct name, or `DefaultSuccess`.
    var output: String
    var id: UInt64
    var invokePrivilege = "operate"
    var isTimed = false
    var isFabricScoped = false
    var maturity = IDLMaturity.stable
    var documentation: String?
    var line: Int
}

struct IDLEvent: Equatable, Sendable {
    var name: String
    var id: UInt64
    var priority: String
    var readPrivilege = "view"
    var isFabricSensitive = false
    var fields: [IDLField]
    var maturity = IDLMaturity.stable
    var line: Int
}

struct IDLCluster: Equatable, Sendable {
    var name: String
    var id: UInt64
    /// 1 when the cluster does not say (the IDL's default).
    var revision: UInt64 = 1
    var maturity = IDLMaturity.stable
    var documentation: String?
    var enums: [IDLConstants] = []
    var bitmaps: [IDLConstants] = []
    var structs: [IDLStruct] = []
    var attributes: [IDLAttribute] = []
    var commands: [IDLCommand] = []
    var events: [IDLEvent] = []
    var line: Int
}

/// A whole file: the global (cluster-independent) types and the clusters. Endpoint blocks are skipped.
struct IDLFile: Equatable, Sendable {
    var enums: [IDLConstants] = []
    var bitmaps: [IDLConstants] = []
    var structs: [IDLStruct] = []
    var clusters: [IDLCluster] = []
}
