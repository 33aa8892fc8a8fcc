import MatterMessaging
import MatterPlatform
import MatterSecureChannel

// Matter Core §4.6.2 (secured group message reception), §4.5.5 (group counters, trust-first), §4.9.3 (privacy), §4.16
/// Opens the group messages a node receives: finds the fabric and key (every epoch key of every key set mapped to a
/// group whose hash is the message's session ID; a private message's header revealed with that key's privacy key
/// first), checks the message is for a group of that key set, authenticates it, and drops duplicates with one counter
/// window per fabric and sender, trusting a sender's first counter (trust-first: the only policy this node offers).
/// The windows live in memory, as connectedhomeip's do.
struct GroupReception {
    private struct Sender: Hashable {
        let fabricIndex: UInt8
        let nodeID: UInt64
    }

    private var windows: [Sender: MessageCounterWindow] = [:]

    /// A group message opened: the fabric and group it is for, its sender, and the message.
    struct Opened {
        let fabricIndex: UInt8
        let groupID: UInt16
        let sourceNodeID: UInt64
        let message: Message
    }

    enum Refusal: Error, CustomStringConvertible {
        case noKey
        case duplicate
        case tooManySenders(fabricIndex: UInt8)

        var description: String {
            switch self {
            case .noKey: "no key set of this node that maps the group opens it"
            case .duplicate: "a duplicate (its counter was seen)"
            case .tooManySenders(let fabric):
                "fabric \(fabric) already has \(NodeConstants.groupPeersPerFabric) group senders tracked"
            }
        }
    }

    mutating func open(_ datagram: GroupDatagram, fabrics: [Fabric]) -> Result<Opened, Refusal> {
        for fabric in fabrics {
            guard let compressed = try? fabric.compressedFabricID() else { continue }
            for (key, groups) in fabric.groups.receivingKeys(
                sessionID: datagram.groupSessionID, compressedFabricID: compressed)
            {
                guard let (bytes, header) = Self.readable(datagram, key: key),
                    case .group(let groupID)? = header.destination, groups.contains(groupID),
                    let source = header.sourceNodeID,
                    // §4.8.1.1: a group message's nonce carries the sender's node ID from its header.
                    let message = try? Message.decrypt(bytes, key: key, nonceSourceNodeID: source)
                else { continue }
                let sender = Sender(fabricIndex: fabric.index, nodeID: source)
                var window: MessageCounterWindow
                if let known = windows[sender] {
                    window = known
                } else {
                    guard
                        windows.keys.count(where: { $0.fabricIndex == fabric.index })
                            < NodeConstants.groupPeersPerFabric
                    else { return .failure(.tooManySenders(fabricIndex: fabric.index)) }
                    window = MessageCounterWindow(policy: .group)
                }
                guard window.accept(message.header.messageCounter) == .new else { return .failure(.duplicate) }
                windows[sender] = window
                return .success(
                    Opened(fabricIndex: fabric.index, groupID: groupID, sourceNodeID: source, message: message))
            }
        }
        return .failure(.noKey)
    }

    /// The datagram with its header readable: as it came, or, for a private message (§4.9.3), revealed with the
    /// privacy key of `key`.
    private static func readable(_ datagram: GroupDatagram, key: [UInt8]) -> ([UInt8], MessageHeader)? {
        guard datagram.header.isPrivate else { return (datagram.datagram, datagram.header) }
        guard let privacyKey = try? GroupKeys.privacyKey(operationalKey: key),
            let revealed = try? MessagePrivacy.reveal(datagram.datagram, privacyKey: privacyKey),
            let header = try? MessageHeader.decode(revealed).header
        else { return nil }
        return (revealed, header)
    }

    /// A fabric left: its senders' windows go with it.
    mutating func forget(fabricIndex: UInt8) {
        windows = windows.filter { $0.key.fabricIndex != fabricIndex }
    }
}
