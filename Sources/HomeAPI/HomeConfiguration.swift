import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterPlatform

extension Home {
    /// Where `Home.connect()` finds the hub's state. Set at most one of the two; with neither, the default state
    /// directory (`$XDG_DATA_HOME/swift-home`, else `~/.local/share/swift-home`) is used.
    public struct Configuration: Sendable, Hashable {
        /// An app group ID (reverse-DNS, e.g. `group.example.home`): apps configured with the same group share one hub
        /// state, in `<swift-home data directory>/app-groups/<group ID>/`, created owner-only (0700).
        public var sharedAppGroup: String?
        /// An explicit state directory.
        public var stateDirectory: String?
        /// Interfaces DNS-SD may use (`eth0`…), to find devices being added and, later, their operational records.
        /// Empty (the default): no mDNS is sent at all, and each device is reached at its last known address.
        public var networkInterfaces: [String]
        /// A device's subscription is renewed at least this often, so a lost device turns offline within it plus its
        /// retransmission time; whole seconds, at least one.
        public var liveness: Duration
        /// The directory of trusted PAA certificates (DER or PEM) that device attestation checks against; nil: the
        /// state directory's `paa/` (in the app group container when one is configured).
        public var paaTrustStore: String?
        /// The group whose members may use the home's socket too, while this process is its hub; nil: its owner
        /// only.
        public var hubSocketGroup: UInt32?
        /// Skips discovery: the address devices being added answer at (tests over loopback, where no mDNS is sent).
        var commissioningAddress: SocketAddress?

        public init(
            sharedAppGroup: String? = nil, stateDirectory: String? = nil, networkInterfaces: [String] = [],
            liveness: Duration = .seconds(Int(HubTiming.liveMaxIntervalCeiling)), paaTrustStore: String? = nil
        ) {
            self.sharedAppGroup = sharedAppGroup
            self.stateDirectory = stateDirectory
            self.networkInterfaces = networkInterfaces
            self.liveness = liveness
            self.paaTrustStore = paaTrustStore
        }

        /// What the engine this process may become needs: the interfaces, the liveness, the trust store, the socket's
        /// group.
        var engineOptions: HubEngineOptions {
            HubEngineOptions(
                networkInterfaces: networkInterfaces, connectionSettings: connectionSettings,
                paaTrustStore: paaTrustStore,
                commissioningAddress: commissioningAddress, socketGroup: hubSocketGroup)
        }

        /// The node connections' settings: the liveness as the max interval ceiling, rounded up to whole seconds.
        var connectionSettings: NodeConnection.Settings {
            let (seconds, attoseconds) = liveness.components
            let whole = seconds + (attoseconds > 0 ? 1 : 0)
            return NodeConnection.Settings(maxIntervalCeiling: UInt16(clamping: max(1, whole)))
        }

        /// The state directory this configuration names, as a path (the default one when it names none): nothing is
        /// checked or created.
        public func resolvedStateDirectory() throws(HomeError) -> String {
            try Home.statePath(self)
        }

        /// The state directory this configuration names, or nil for the hub's default one.
        func statePath(environment: [String: String]) throws(HomeError) -> String? {
            switch (sharedAppGroup, stateDirectory) {
            case (.some, .some):
                throw HomeError(.invalidArgument, "set either sharedAppGroup or stateDirectory, not both")
            case (nil, let directory?):
                return directory
            case (let group?, nil):
                try Self.validateAppGroup(group)
                do {
                    return try StateDirectory.resolve(explicitPath: nil, environment: environment) + "/app-groups/"
                        + group
                } catch {
                    throw HomeError(error)
                }
            case (nil, nil):
                return nil
            }
        }

        /// Reverse-DNS: labels of ASCII letters, digits and hyphens, separated by single dots. Nothing else can reach
        /// the file system (no `/`, no `..`).
        static func validateAppGroup(_ group: String) throws(HomeError) {
            let labels = group.split(separator: ".", omittingEmptySubsequences: false)
            let valid =
                group.utf8.count <= HomeLimits.appGroupIDLength
                && labels.allSatisfy { label in
                    !label.isEmpty
                        && label.unicodeScalars.allSatisfy {
                            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
                        }
                }
            guard valid else {
                throw HomeError(
                    .invalidArgument,
                    "invalid app group ID \"\(group)\": use reverse-DNS form (letters, digits, hyphens and single dots, "
                        + "at most \(HomeLimits.appGroupIDLength) characters), e.g. group.example.home")
            }
        }
    }
}
