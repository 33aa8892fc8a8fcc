import Foundation
import HomeRecords
import MatterInteraction
import MatterNode

extension NodeConnection {
    /// Whether the hub hears the node (`ConnectionState`).
    public typealias State = ConnectionState

    /// What a connection publishes.
    public enum Event: Hashable, Sendable {
        case connectivity(State)
        /// These cached attributes have a new value (or were removed).
        case attributes(Set<ConcreteAttributePath>)
        /// The node reported these events, each once, in order (none from before the connection first primed).
        case events([NodeEvent])
    }

    /// How a connection subscribes.
    public struct Settings: Hashable, Sendable {
        /// The max interval ceiling asked of the node: a lost node is noticed within this plus its MRP
        /// retransmission time. The default and its reason are `HubTiming.liveMaxIntervalCeiling`.
        public var maxIntervalCeiling: UInt16
        /// Waiting for each message of the node while subscribing or invoking.
        public var responseTimeout: Duration
        /// What the subscription covers: every attribute of the node. A short-lived caller (one CLI command) narrows
        /// it to what it needs, so that it neither primes the whole node nor disturbs the hub's own subscription on
        /// devices that handle several wildcard subscriptions badly (CircuitMatter reports changes only to the
        /// latest one).
        public var attributePaths: [AttributePathIB]
        /// The events the subscription asks for: every event of the node; none for a short-lived caller.
        public var eventPaths: [EventPathIB]

        public init(
            maxIntervalCeiling: UInt16 = HubTiming.liveMaxIntervalCeiling,
            responseTimeout: Duration = NodeTiming.interactionResponse,
            attributePaths: [AttributePathIB] = [AttributePathIB()], eventPaths: [EventPathIB] = [EventPathIB()]
        ) {
            self.maxIntervalCeiling = maxIntervalCeiling
            self.responseTimeout = responseTimeout
            self.attributePaths = attributePaths
            self.eventPaths = eventPaths
        }
    }
}
