import Glibc
import HomeHub
import MatterCrypto
import MatterTime
import Synchronization

/// Firmware images uploaded through the Matter-server API (matterjs-server's schema 13): `initiate_ota_upload`
/// reserves a single-use ID for the peer that asked, and `POST /ota-upload/<id>` from that peer streams the image
/// into a file of its own in `<state>/ota-uploads/` (0700), which the hub then adds as `home update add` would. A
/// reservation holds one of few places from the moment it is given, so no client can hoard IDs; the file goes
/// whatever the outcome.
final class OTAUploads: Sendable {
    /// What `initiate_ota_upload` answers.
    struct Ticket: Sendable, Hashable {
        let id: String
        let expiresInSeconds: Int
        let maximumBytes: Int
    }

    /// The limits of uploads, each with its reason.
    enum Limits {
        /// How long a reservation waits for its POST to begin: matterjs-server's 60 s, ample for a client that
        /// uploads straight after asking. The transfer itself is bounded by size, not time.
        static let reservationTime: Duration = .seconds(60)
        /// Uploads reserved or under way at once: matterjs-server's 5. Each holds a file of up to `largestImage`.
        static let atOnce = 5
        /// The largest image the hub's store takes.
        static let largestImage = OTAImageStore.largestImage
    }

    private struct Reservation {
        let peer: [UInt8]
        let expires: Instant
        var claimed = false
    }

    let directory: String
    private let clock: any DriverClock
    private let reservations = Mutex<[String: Reservation]>([:])

    init(directory: String, clock: any DriverClock) {
        self.directory = directory
        self.clock = clock
    }

    /// A new ID for `peer`, in one of the places, unless all are taken.
    func reserve(for peer: [UInt8]) throws(MatterServerError) -> Ticket {
        let id = SystemRandom().bytes(16).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let now = clock.now
        try reservations.withLock { reservations throws(MatterServerError) in
            // A reservation whose POST never began gives its place up when it expires.
            reservations = reservations.filter { $0.value.claimed || $0.value.expires > now }
            guard reservations.count < Limits.atOnce else {
                throw MatterServerError(
                    .otaUploadError, "\(Limits.atOnce) uploads are already reserved or under way: try again later")
            }
            reservations[id] = Reservation(peer: peer, expires: now + Limits.reservationTime)
        }
        return Ticket(
            id: id, expiresInSeconds: Int(Limits.reservationTime.components.seconds),
            maximumBytes: Limits.largestImage)
    }

    /// The POST for `id` from `peer` begins: the file its body goes to, created new (never one someone put there),
    /// open for writing.
    func claim(_ id: String, from peer: [UInt8]) throws(MatterServerError) -> (path: String, descriptor: Int32) {
        let now = clock.now
        try reservations.withLock { reservations throws(MatterServerError) in
            guard let reservation = reservations[id], !reservation.claimed, reservation.expires > now else {
                throw MatterServerError(
                    .otaUploadError,
                    "upload ID \(id) is unknown, expired or already used: ask initiate_ota_upload again")
            }
            guard reservation.peer == peer else {
                throw MatterServerError(.otaUploadError, "upload ID \(id) was given to another client")
            }
            reservations[id]?.claimed = true
        }
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            let reason = String(cString: strerror(errno))
            release(id)
            throw MatterServerError(.otaUploadError, "the hub cannot make its uploads folder: \(reason)")
        }
        // The ID is ours, never the client's text: nothing a client sends reaches the path but the 32 hex digits.
        let path = directory + "/" + id + ".ota"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            release(id)
            throw MatterServerError(.otaUploadError, "the hub cannot keep the upload: \(reason)")
        }
        return (path, descriptor)
    }

    /// The upload is over, however it went: its place is free and its file gone.
    func release(_ id: String) {
        reservations.withLock { _ = $0.removeValue(forKey: id) }
        unlink(directory + "/" + id + ".ota")
    }

    /// Reservations holding a place now (expired ones included until the next reservation sweeps them).
    var count: Int { reservations.withLock { $0.count } }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
