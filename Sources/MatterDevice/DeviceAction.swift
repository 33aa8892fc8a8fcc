import MatterNode

/// What a person does to a virtual device by hand (`matter-device`'s console): the cluster server with that control
/// acts as its simulation step would, with the same attribute changes and events. Scripts use it to make a button
/// press or a contact change happen when they look for it, not when chance has it.
public enum DeviceAction: Hashable, Sendable {
    /// A momentary switch's button is pressed (InitialPress); it is released at the next simulation step.
    case press
    /// A contact sensor's contact is closed (true) or opened (StateChange when that changes it).
    case contact(closed: Bool)
}
