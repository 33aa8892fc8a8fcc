import HomeEngine
import HubWire

/// An error of the Matter-server protocol (python-matter-server's `common/errors.py`): its clients map an error frame's
/// code to an exception class, and any code but these raises inside the client (`../shared/protocols/matter-server-ws.md`),
/// so no other code is ever sent (but matterjs-server's 101, to the clients of its command alone).
struct MatterServerError: Error, Sendable, Hashable {
    enum Code: Int, Sendable, Hashable {
        case unknown = 0
        case nodeCommissionFailed = 1
        case nodeInterviewFailed = 2
        case nodeNotReady = 3
        case nodeNotResolving = 4
        case nodeNotExists = 5
        case versionMismatch = 6
        case sdkStackError = 7
        case invalidArguments = 8
        case invalidCommand = 9
        case updateCheckError = 10
        case updateError = 11
        /// matterjs-server's extension (schema 13): `initiate_ota_upload` or its POST failed. Only a client that sends
        /// that command (and so knows the code) ever gets it.
        case otaUploadError = 101
        /// matterjs-server's extension: `register_icd` refused because other vendors administer the node; `details`
        /// is a JSON string `{message, admin_vendor_ids}`. Only a client that sends that command gets it.
        case icdMultiAdmin = 100
    }

    let code: Code
    let details: String

    init(_ code: Code, _ details: String) {
        self.code = code
        self.details = details
    }

    /// A hub error: a node out of reach is NodeNotReady, anything else Unknown, said in words.
    init(_ error: HomeError) {
        self.init(error.code == .unavailable ? .nodeNotReady : .unknown, error.message)
    }

    /// An argument absent or not of its type.
    static func missing(_ argument: String) -> Self {
        Self(.invalidArguments, "\(argument) is missing or not of its type")
    }

    /// Worded as python-matter-server words it.
    static func unknownNode(_ nodeID: UInt64) -> Self {
        Self(.nodeNotExists, "Node \(nodeID) does not exist or is not yet interviewed")
    }

    static func notReady(_ nodeID: UInt64) -> Self {
        Self(.nodeNotReady, "Node \(nodeID) is not (yet) available")
    }
}
