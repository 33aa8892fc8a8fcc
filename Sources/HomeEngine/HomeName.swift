import HubWire

/// The names of devices, rooms and structures: at most `HubEngineLimits.nameCodePoints` Unicode code points (longer names
/// are cut there, even inside a grapheme cluster, without error), with a visible character, and without control
/// characters: a name is printed in terminals and tables, where a newline breaks a row and an escape sequence or a
/// bidirectional override changes what the user reads.
package enum HomeName {
    /// The most code points a name keeps (a front door that shows the rule, the dashboard's rename field, reads it here).
    package static var maximumCodePoints: Int { HubEngineLimits.nameCodePoints }

    package static func validated(_ name: String, naming what: String) throws(HomeError) -> String {
        let scalars = name.unicodeScalars.prefix(HubEngineLimits.nameCodePoints)
        if let control = scalars.first(where: isControl) {
            throw HomeError(
                .invalidArgument,
                "invalid \(what) name \(quoted(name)): it holds the control character U+"
                    + hex(control) + " (line breaks, tabs, escapes and direction overrides are not allowed)")
        }
        // Checked after cutting: what is stored must have a visible character.
        guard scalars.contains(where: { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint })
        else {
            throw HomeError(
                .invalidArgument,
                "invalid \(what) name \(quoted(name)): it needs at least one character that is not white "
                    + "space")
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// C0 and C1 controls (newline, tab, escape…) and the bidirectional embedding, override and isolate controls
    /// (Unicode TR 9), which reorder the text printed after them.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    /// The name in quotes, its controls escaped (`\u{1B}`): the error is printed too.
    private static func quoted(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            if isControl(scalar) {
                text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                if scalar == "\"" || scalar == "\\" { text += "\\" }
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
