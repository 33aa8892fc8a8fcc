import MatterMessaging

/// What the data model asks of the device around it after a request: the things a cluster cannot do from inside
/// the Interaction Model engine (sessions, sockets, files, the console).
public enum NodeEffect: Hashable, Sendable {
    /// The persistent state changed: write the state file before the answer goes out (fabrics, access, groups: what
    /// an acknowledgement promises).
    case persist
    /// A value that changes often changed (on/off, a level, a color): written within
    /// `NodeTiming.deferredPersistence`, once for a burst of changes, not before the answer.
    case persistSoon
    /// Fabrics or the commissioning window changed: advertise what is true now.
    case advertise
    /// End every session of this fabric (it was removed or rolled back).
    case closeSessions(fabricIndex: UInt8)
    /// The commissioning window closed: end its PASE sessions.
    case closePASESessions
    /// AddNOC over this PASE session: it now belongs to the new fabric (§11.18.6.8).
    case bindSession(SessionHandle, fabricIndex: UInt8)
    /// A fabric's groups or group keys changed: join the multicast groups the node's endpoints are in now.
    case groupsChanged
    /// The device joined the IP network it was given (ConnectNetwork): a device fresh from its box comes up on IP.
    case joinedNetwork
    /// The network it joined was taken back (the fail-safe expired): a device that was on no other goes off IP.
    case leftNetwork
    /// One line for the console ("[light] ON").
    case log(String)
    /// An OTA provider said it is there (AnnounceOTAProvider, Matter Core §11.21.7.6.1): the device asks it for an
    /// update (`LocalNode.handleApplicationEffects`).
    case updateAnnounced(providerNodeID: UInt64, fabricIndex: UInt8, endpoint: UInt16)
    /// Matter Core §9.16.7.1: a client registered to be checked in with (`LocalNode.handleApplicationEffects`); the
    /// device notes where the registering session came from.
    case checkInClientRegistered(nodeID: UInt64, fabricIndex: UInt8)
    /// Matter Core §9.16.7.3 StayActiveRequest: an intermittently connected device stays in active mode this long
    /// (its radio listens on).
    case stayActive(milliseconds: UInt32)
}
