/// The Swift type of each IDL built-in data type (Matter Core §7.18.2 Base Data Types, with their connectedhomeip
/// IDL spellings). Integer widths round up to the next Swift integer (`int24u` → `UInt32`).
enum IDLBaseTypes {
    static func swiftType(_ name: String) -> String? {
        table[name.lowercased()]
    }

    /// Types whose values are integers of a known width: the base types of enums and bitmaps.
    static func integerType(_ name: String) -> String? {
        guard let swift = table[name.lowercased()], swift.hasPrefix("UInt") || swift.hasPrefix("Int") else {
            return nil
        }
        return swift
    }

    /// An integer type's `IntegerLimit` literal: its width, or the range the specification gives it (§7.18.2:
    /// `percent` 0 to 100, `percent100ths` 0 to 10000); nil for a type that is no integer or takes any 64-bit value.
    static func limit(_ name: String) -> String? {
        switch name.lowercased() {
        case "percent": return ".range(0...100)"
        case "percent100ths": return ".range(0...10000)"
        default: break
        }
        let lowered = name.lowercased()
        // intNu, intNs, enumN and bitmapN say their width; other integer types have their Swift type's.
        for (prefix, suffix, signed) in [
            ("int", "u", false), ("int", "s", true), ("enum", "", false), ("bitmap", "", false),
        ]
        where lowered.hasPrefix(prefix) && lowered.hasSuffix(suffix) {
            let digits = lowered.dropFirst(prefix.count).dropLast(suffix.count)
            guard let bits = Int(digits) else { continue }
            return bits >= 64 ? nil : signed ? ".signed(bits: \(bits))" : ".unsigned(bits: \(bits))"
        }
        switch table[lowered] {
        case "UInt8"?: return ".unsigned(bits: 8)"
        case "UInt16"?: return ".unsigned(bits: 16)"
        case "UInt32"?, "ClusterID"?, "AttributeID"?, "CommandID"?, "EventID"?, "DeviceTypeID"?:
            return ".unsigned(bits: 32)"
        case "Int8"?: return ".signed(bits: 8)"
        case "Int16"?: return ".signed(bits: 16)"
        case "Int32"?: return ".signed(bits: 32)"
        default: return nil
        }
    }

    private static let table: [String: String] = [
        "boolean": "Bool",
        "int8u": "UInt8", "int16u": "UInt16", "int24u": "UInt32", "int32u": "UInt32",
        "int40u": "UInt64", "int48u": "UInt64", "int56u": "UInt64", "int64u": "UInt64",
        "int8s": "Int8", "int16s": "Int16", "int24s": "Int32", "int32s": "Int32",
        "int40s": "Int64", "int48s": "Int64", "int56s": "Int64", "int64s": "Int64",
        "enum8": "UInt8", "enum16": "UInt16",
        "bitmap8": "UInt8", "bitmap16": "UInt16", "bitmap24": "UInt32", "bitmap32": "UInt32", "bitmap64": "UInt64",
        "single": "Float", "double": "Double",
        "char_string": "String", "long_char_string": "String",
        "octet_string": "[UInt8]", "long_octet_string": "[UInt8]",
        "ipadr": "[UInt8]", "ipv4adr": "[UInt8]", "ipv6adr": "[UInt8]", "ipv6pre": "[UInt8]", "hwadr": "[UInt8]",
        "percent": "UInt8", "percent100ths": "UInt16",
        "epoch_us": "UInt64", "epoch_s": "UInt32", "utc": "UInt32", "posix_ms": "UInt64",
        "systime_us": "UInt64", "systime_ms": "UInt64", "elapsed_s": "UInt32",
        "temperature": "Int16",
        "power_mw": "Int64", "power_mva": "Int64", "power_mvar": "Int64", "amperage_ma": "Int64", "voltage_mv": "Int64",
        "energy_mwh": "Int64", "energy_mvah": "Int64", "energy_mvarh": "Int64", "money": "Int64",
        "action_id": "UInt8", "data_ver": "UInt32", "endpoint_no": "UInt16", "entry_idx": "UInt16",
        "event_no": "UInt64", "fabric_id": "UInt64", "fabric_idx": "UInt8", "field_id": "UInt32", "group_id": "UInt16",
        "node_id": "UInt64", "subject_id": "UInt64", "status": "UInt8", "trans_id": "UInt32", "vendor_id": "UInt16",
        "namespace": "UInt8", "tag": "UInt8", "priority": "UInt8",
        "cluster_id": "ClusterID", "attrib_id": "AttributeID", "command_id": "CommandID", "event_id": "EventID",
        "devtype_id": "DeviceTypeID",
    ]
}
