import HomeRecords

/// The label the hub gives its fabric on every node: the home's name, which other ecosystems show in their lists of
/// the apps connected to a device.
public enum FabricLabel {
    /// §11.18.6.11 UpdateFabricLabel: at most 32 bytes, cut at a character boundary.
    public static func of(home name: String) -> String {
        var label = ""
        for character in name {
            guard label.utf8.count + character.utf8.count <= 32 else { break }
            label.append(character)
        }
        return label
    }
}
