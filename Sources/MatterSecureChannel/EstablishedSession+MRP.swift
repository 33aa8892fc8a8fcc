import MatterMessaging

// Matter Core §4.12.8: the MRP intervals a peer announced while the session was established.
extension EstablishedSession {
    /// The peer's MRP intervals when it sent them; the spec's defaults otherwise.
    public var mrpParameters: MRPParameters {
        guard let parameters = peerParameters else { return .default }
        var mrp = MRPParameters.default
        if let idle = parameters.idleInterval { mrp.idleInterval = .milliseconds(idle) }
        if let active = parameters.activeInterval { mrp.activeInterval = .milliseconds(active) }
        if let threshold = parameters.activeThreshold { mrp.activeThreshold = .milliseconds(threshold) }
        return mrp
    }
}
