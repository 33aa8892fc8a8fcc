/// What `OnOffTrait.toggleFallingBackToOnOff()` sent.
public enum ToggleOutcome: Sendable, Hashable, Codable {
    case toggled
    /// On, the device being off (it does not accept Toggle).
    case turnedOn
    /// Off, the device being on (it does not accept Toggle).
    case turnedOff
}
