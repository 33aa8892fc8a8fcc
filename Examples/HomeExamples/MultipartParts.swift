import HomeAPI

/// With multipart devices on, one device per node: list each one's Generic Switch parts (a switch panel's buttons) and
/// lights, told apart by their semantic tags.
enum MultipartParts {
    static func run(_ home: Home) async throws(HomeError) {
        for device in try await home.devices(enableMultipartDevices: true).list().sorted(by: { $0.id < $1.id }) {
            print("\(device.name) (\(device.id))")
            for button in try await device.types.getAll(of: GenericSwitchDeviceType.self) {
                print("  button on endpoint \(button.metadata.endpoint): \(describe(button.metadata.semanticTags))")
            }
            for light in try await device.types.getAll(of: OnOffLightDeviceType.self) {
                print("  light on endpoint \(light.metadata.endpoint): \(describe(light.metadata.semanticTags))")
            }
        }
    }

    /// "Number 1", "Left, Row 2", or "no tags".
    private static func describe(_ tags: [SemanticTag]) -> String {
        tags.isEmpty ? "no tags" : tags.map(\.description).joined(separator: ", ")
    }
}
