import HomeHub
import HomeRecords
import HubWire

/// Who asks the hub: the user whose permissions are checked, and the process that owns an add-device session it
/// opens. For a client of the socket, the kernel says (SO_PEERCRED); a client cannot claim to be someone else.
public struct HubCaller: Sendable, Hashable {
    let uid: UInt32
    let process: ProcessIdentity?

    public init(uid: UInt32, process: ProcessIdentity?) {
        self.uid = uid
        self.process = process
    }
}
