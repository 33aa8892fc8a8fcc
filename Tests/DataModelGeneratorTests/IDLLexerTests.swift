import Testing

@testable import DataModelGenerator

@Suite struct IDLLexerTests {
    @Test func readsIdentifiersNumbersSymbolsAndDocComments() throws {
        let tokens = try IDLLexer.tokenize(
            """
            // dropped
            /** Turns it on. */
            cluster OnOff = 0x0006 { /* dropped */ }
            """)
        #expect(
            tokens.map(\.kind) == [
                .documentation("Turns it on."), .identifier("cluster"), .identifier("OnOff"), .symbol("="), .number(6),
                .symbol("{"), .symbol("}"), .end,
            ])
        #expect(tokens.map(\.line) == [2, 3, 3, 3, 3, 3, 3, 3])
    }

    @Test func joinsMultiLineDocumentationOnOneLine() throws {
        let tokens = try IDLLexer.tokenize("/** First line\n   * second line. */")
        #expect(tokens.first?.kind == .documentation("First line second line."))
    }

    @Test func reportsUnclosedCommentsAndStringsAtTheirStart() {
        #expect(throws: GeneratorError.syntax(line: 2, message: "comment opened here is never closed")) {
            try IDLLexer.tokenize("enum A : enum8 {}\n/* never\nclosed")
        }
        #expect(throws: GeneratorError.syntax(line: 1, message: "string opened here is never closed")) {
            try IDLLexer.tokenize("\"abc\n\"")
        }
    }

    @Test func rejectsNumbersThatDoNotFitAndStrayCharacters() {
        #expect(
            throws: GeneratorError.syntax(
                line: 1, message: "'0x1FFFFFFFFFFFFFFFF' is not a number (or does not fit 64 bits)")
        ) {
            try IDLLexer.tokenize("0x1FFFFFFFFFFFFFFFF")
        }
        #expect(throws: GeneratorError.syntax(line: 3, message: "unexpected character '@'")) {
            try IDLLexer.tokenize("\n\n@")
        }
    }
}
