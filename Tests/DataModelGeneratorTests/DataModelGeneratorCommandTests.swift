import Foundation
import Testing

@testable import DataModelGenerator

@Suite struct DataModelGeneratorCommandTests {
    @Test func replacesEarlierGeneratedFilesAndKeepsHandWrittenOnes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("datamodel-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let marker = DataModelGeneratorCommand.generatedMarker
        try DataModelGeneratorCommand.write(
            [
                GeneratedFile(name: "OldCluster.swift", contents: marker + " from a; do not edit.\n"),
                GeneratedFile(name: "KeptCluster.swift", contents: marker + " from a; do not edit.\n// v1\n"),
            ], to: folder)
        try "// written by hand\n".write(toFile: folder + "/Support.swift", atomically: true, encoding: .utf8)

        try DataModelGeneratorCommand.write(
            [
                GeneratedFile(name: "KeptCluster.swift", contents: marker + " from a; do not edit.\n// v2\n")
            ], to: folder)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "KeptCluster.swift", "Support.swift",
            ])
        #expect(try String(contentsOfFile: folder + "/KeptCluster.swift", encoding: .utf8).hasSuffix("// v2\n"))
    }

    @Test func runsFromArgumentsToFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("datamodel-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let idl = folder + "/Acme.matter"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "cluster Widget = 0xFFF1FC00 {\n  readonly attribute int8u size = 0;\n}\n".write(
            toFile: idl, atomically: true, encoding: .utf8)
        try DataModelGeneratorCommand.run(
            GeneratorArguments(["--idl", idl, "--namespace", "Acme", "--output", folder + "/out"]))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted() == [
                "Acme.swift", "WidgetCluster.swift",
            ])

        try "cluster Widget = 1 {\n  readonly attribute int8u size = 0\n}\n".write(
            toFile: idl, atomically: true, encoding: .utf8)
        #expect(throws: GeneratorError.io("Acme.matter: line 3: expected ';', found '}'")) {
            try DataModelGeneratorCommand.run(GeneratorArguments(["--idl", idl, "--output", folder + "/out"]))
        }
    }
}
