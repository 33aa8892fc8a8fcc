/// The one error type of the Home API: a code a program can switch on and a message a person can read.
/// Every error any Home API call throws is a `HomeError`; errors from the hub below are mapped into one.
public struct HomeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is; the codes and their meanings follow the canonical status codes of gRPC and Google APIs.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The caller cancelled the operation.
        case cancelled
        /// An error with no better code.
        case unknown
        /// The argument is wrong whatever the state of the home (an empty name, a malformed app group ID).
        case invalidArgument
        /// The operation did not finish in time.
        case deadlineExceeded
        /// The device, room or structure does not exist (any more).
        case notFound
        /// What the call would create exists already (a room of that name).
        case alreadyExists
        /// The caller may not do this (a directory it cannot write).
        case permissionDenied
        /// Some resource ran out.
        case resourceExhausted
        /// The home is not in a state that allows this (a database from a newer swift-home).
        case failedPrecondition
        /// A concurrent change got in the way; retrying may succeed.
        case aborted
        /// A value past the valid range.
        case outOfRange
        /// Not built yet.
        case unimplemented
        /// A broken invariant: a bug in swift-home.
        case `internal`
        /// The hub or its store cannot be reached right now (busy database); retrying later may succeed.
        case unavailable
        /// Stored state is damaged.
        case dataLoss
        /// The caller's identity could not be established.
        case unauthenticated
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
