import HomeRecords
import MatterDataModel
import MatterTLV

/// An event for people: "Switch.InitialPress  newPosition=1". Fields are named as the typed event names them, by
/// their context tag; a field the data model does not name shows its tag.
public enum EventText {
    public static func render(_ event: NodeEvent, registry: ClusterRegistry = .standard) -> String {
        let name = registry.describe(cluster: event.cluster, event: event.event)
        guard let data = event.data else { return name }
        guard case .structure(let members) = data.value else { return name + "  " + AttributeValueText.render(data) }
        let names = registry[event.cluster]?.eventFields[event.event] ?? [:]
        let fields = members.map { member in
            let field: String =
                switch member.tag {
                case .context(let tag): names[tag] ?? "\(tag)"
                default: "\(member.tag)"
                }
            return field + "=" + AttributeValueText.render(TLVElement(member.value))
        }
        return fields.isEmpty ? name : name + "  " + fields.joined(separator: " ")
    }
}
