import MatterTLV

// Matter Core §8.8.3 Invoke Response Action: what one invoked command produced.
public enum CommandOutcome: Hashable, Sendable {
    /// A response command (an ID of the cluster's GeneratedCommandList) with its fields structure.
    case response(commandID: UInt32, fields: TLVValue)
    /// A failure (or another status) for the command, optionally with a cluster-specific status code.
    case status(InteractionModelStatus, clusterStatus: UInt8? = nil)
    /// The command succeeded and has no response fields.
    case success
}
