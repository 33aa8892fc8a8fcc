import Foundation
import HomeRecords

/// How a name the user typed finds a room: the one spelled exactly so (as Swift compares, canonically equivalent
/// spellings alike), else the one whose name differs only in case, in any script ("KÜCHE" finds "Küche"). The store
/// refuses a room name another room already matches, so the lookup is never ambiguous for rooms it made.
public enum NameMatch {
    public static func first<Element>(
        _ name: String, in elements: some Collection<Element>, named nameOf: (Element) -> String
    ) -> Element? {
        elements.first { nameOf($0) == name }
            ?? elements.first { nameOf($0).caseInsensitiveCompare(name) == .orderedSame }
    }
}
