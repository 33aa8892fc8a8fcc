import HomeAPI
import HomeHub
import HomeRecords

/// An endpoint's semantic tags as people read them ("Number 1", "Left, Row 2") and as JSON, named by the Home API's
/// `SemanticTag`.
enum SemanticTagText {
    static func tag(_ stored: EndpointSemanticTag) -> SemanticTag {
        SemanticTag(
            manufacturerCode: stored.manufacturerCode, namespaceID: stored.namespaceID, tag: stored.tag,
            label: stored.label)
    }

    /// "Number 1, Left"; "" when there are none.
    static func list(_ tags: [EndpointSemanticTag]) -> String {
        tags.map { tag($0).description }.joined(separator: ", ")
    }

    /// `{"namespaceID":7,"tag":1,"label":null,"manufacturerCode":null,"name":"Number 1"}` for each tag.
    static func json(_ tags: [EndpointSemanticTag]) -> JSONValue {
        .array(
            tags.map { stored in
                .object([
                    ("namespaceID", .unsigned(UInt64(stored.namespaceID))),
                    ("tag", .unsigned(UInt64(stored.tag))),
                    ("label", stored.label.map(JSONValue.string) ?? .null),
                    ("manufacturerCode", stored.manufacturerCode.map { .unsigned(UInt64($0)) } ?? .null),
                    ("name", .string(tag(stored).description)),
                ])
            })
    }
}
