import Testing

@testable import DataModelGenerator

@Suite struct GeneratorArgumentsTests {
    @Test func readsEveryOption() throws {
        let arguments = try GeneratorArguments([
            "--idl", "a.matter", "--output", "out", "--device-types", "d.xml", "--clusters", "OnOff, LevelControl",
            "--attribution", "connectedhomeip, Apache-2.0",
        ])
        #expect(
            arguments.idlPath == "a.matter" && arguments.outputPath == "out" && arguments.deviceTypesPath == "d.xml")
        #expect(arguments.clusters == ["OnOff", "LevelControl"] && arguments.namespace == nil)
        #expect(arguments.attribution == "connectedhomeip, Apache-2.0")
    }

    @Test func rejectsMissingValuesUnknownOptionsAndBadNamespaces() throws {
        #expect(throws: GeneratorError.self) { try GeneratorArguments(["--idl", "a.matter"]) }
        #expect(throws: GeneratorError.self) { try GeneratorArguments(["--idl", "--output", "x"]) }
        #expect(throws: GeneratorError.self) {
            try GeneratorArguments(["--idl", "a", "--output", "o", "--verbose", "1"])
        }
        #expect(throws: GeneratorError.usage("--namespace must be a Swift type name, not 'Acme-Co'")) {
            try GeneratorArguments(["--idl", "a", "--output", "o", "--namespace", "Acme-Co"])
        }
        #expect(
            try GeneratorArguments(["--idl", "a", "--output", "o", "--namespace", "AcmeClusters"]).namespace
                == "AcmeClusters")
    }
}
