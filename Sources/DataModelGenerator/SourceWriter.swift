/// Accumulates indented Swift source, four spaces a level.
struct SourceWriter {
    private(set) var lines: [String] = []
    private var depth = 0

    init(depth: Int = 0) {
        self.depth = depth
    }

    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// `header {`, the body one level deeper, `}`.
    mutating func block(
        _ header: String, _ body: (inout SourceWriter) throws(GeneratorError) -> Void
    ) throws(GeneratorError) {
        line(header + " {")
        depth += 1
        try body(&self)
        depth -= 1
        line("}")
    }

    /// `///` lines for a doc comment, when there is one.
    mutating func documentation(_ text: String?) {
        if let text, !text.isEmpty { line("/// " + text) }
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}
