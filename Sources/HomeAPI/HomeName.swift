/// The names of devices, rooms and structures: at most `HomeLimits.nameCodePoints` Unicode code points (longer names
/// are cut there, even inside a grapheme cluster, without error), and not empty or only white space.
enum HomeName {
    static func validated(_ name: String, naming what: String) throws(HomeError) -> String {
        let scalars = name.unicodeScalars.prefix(HomeLimits.nameCodePoints)
        // Checked after cutting: what is stored must have a visible character.
        guard scalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw HomeError(
                .invalidArgument,
                "invalid \(what) name \"\(name)\": it needs at least one character that is not white space")
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
