/// One token of the Matter IDL, with the line it starts on.
struct IDLToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case identifier(String)
        case number(UInt64)
        case string(String)
        case symbol(Character)
        /// A `/** … */` comment: documentation for the declaration that follows.
        case documentation(String)
        case end
    }

    var kind: Kind
    var line: Int
}

/// Splits IDL text into tokens: identifiers, decimal and hex numbers, strings, symbols and doc comments.
/// Other comments and whitespace are dropped.
enum IDLLexer {
    static let symbols: Set<Character> = ["{", "}", "(", ")", "[", "]", "<", ">", "=", ";", ":", ",", "-"]

    static func tokenize(_ text: String) throws(GeneratorError) -> [IDLToken] {
        let characters = Array(text.unicodeScalars)
        var tokens: [IDLToken] = []
        var index = 0
        var line = 1

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }

        while let scalar = peek() {
            let startLine = line
            if scalar == "\n" {
                line += 1
                index += 1
            } else if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "/" && peek(1) == "/" {
                while let next = peek(), next != "\n" { index += 1 }
            } else if scalar == "/" && peek(1) == "*" {
                let isDocumentation = peek(2) == "*" && peek(3) != "/"
                index += 2
                var body = ""
                while true {
                    guard let next = peek() else {
                        throw .syntax(line: startLine, message: "comment opened here is never closed")
                    }
                    if next == "*" && peek(1) == "/" {
                        index += 2
                        break
                    }
                    if next == "\n" { line += 1 }
                    body.unicodeScalars.append(next)
                    index += 1
                }
                if isDocumentation {
                    tokens.append(IDLToken(kind: .documentation(cleanDocumentation(body)), line: startLine))
                }
            } else if scalar == "\"" {
                index += 1
                var body = ""
                while true {
                    guard let next = peek(), next != "\n" else {
                        throw .syntax(line: startLine, message: "string opened here is never closed")
                    }
                    index += 1
                    if next == "\"" { break }
                    body.unicodeScalars.append(next)
                }
                tokens.append(IDLToken(kind: .string(body), line: startLine))
            } else if isIdentifierStart(scalar) {
                var word = ""
                while let next = peek(), isIdentifierStart(next) || isDigit(next) {
                    word.unicodeScalars.append(next)
                    index += 1
                }
                tokens.append(IDLToken(kind: .identifier(word), line: startLine))
            } else if isDigit(scalar) {
                var word = ""
                while let next = peek(), isIdentifierStart(next) || isDigit(next) {
                    word.unicodeScalars.append(next)
                    index += 1
                }
                tokens.append(IDLToken(kind: .number(try number(word, line: startLine)), line: startLine))
            } else if symbols.contains(Character(scalar)) {
                tokens.append(IDLToken(kind: .symbol(Character(scalar)), line: startLine))
                index += 1
            } else {
                throw .syntax(line: startLine, message: "unexpected character '\(Character(scalar))'")
            }
        }
        tokens.append(IDLToken(kind: .end, line: line))
        return tokens
    }

    private static func number(_ word: String, line: Int) throws(GeneratorError) -> UInt64 {
        let lowered = word.lowercased()
        let value = lowered.hasPrefix("0x") ? UInt64(lowered.dropFirst(2), radix: 16) : UInt64(lowered)
        guard let value else {
            throw .syntax(line: line, message: "'\(word)' is not a number (or does not fit 64 bits)")
        }
        return value
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    /// The comment's text on one line: leading `*` of continuation lines and runs of whitespace removed.
    private static func cleanDocumentation(_ body: String) -> String {
        let body = body.hasPrefix("*") ? String(body.dropFirst()) : body
        return body.split(separator: "\n")
            .map { line in
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                return (trimmed.hasPrefix("*") ? trimmed.dropFirst() : trimmed).trimmingSpaces()
            }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
