import MatterBDX
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterPlatform
import MatterTLV
import Synchronization

/// The hub as its devices' OTA provider (Matter Core §11.21.6): a device's QueryImage is answered from the image
/// store (the newest image for its vendor and product that its version may take), an image offered is served over BDX
/// to that device alone, a bounded number at once, and ApplyUpdateRequest and NotifyUpdateApplied are heard. What
/// happens is told to every `events()` sequence, for the front doors' progress.
public final class OTAProvider: Sendable {
    /// What an update went through, as the provider sees it.
    public enum Event: Sendable, Hashable {
        case offered(nodeID: UInt64, version: UInt32)
        case busy(nodeID: UInt64)
        case transferred(nodeID: UInt64, sent: UInt64, of: UInt64)
        case transferEnded(nodeID: UInt64, BDXExchange.End)
        case applying(nodeID: UInt64, version: UInt32)
        case applied(nodeID: UInt64, version: UInt32)
    }

    /// An image offered to one node, under the token the QueryImageResponse gave it.
    struct Offer: Sendable, Hashable {
        let nodeID: UInt64
        let entry: OTAImageStore.Entry
    }

    /// A node's place among the transfers served at once: taken when it is offered an image (so a device told
    /// UpdateAvailable is never refused the transfer for want of one), kept while its transfers run (a device that
    /// starts its download again keeps it), and given up when they end, or when an offer goes unused for
    /// `HubConstants.otaOfferLifetime`.
    private struct Place {
        var transfers = 0
        var offered: Instant
    }

    private struct State {
        var offers: [[UInt8]: Offer] = [:]
        var places: [UInt64: Place] = [:]
        /// The image a node is to be offered whatever is newer (`pin`), until it applied it.
        var pinned: [UInt64: OTAImageStore.Entry] = [:]
        var observers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextObserver = 0
    }

    /// How many transfers it serves at once (`HubConstants.otaTransfersAtOnce`).
    public static let transfersAtOnce = HubConstants.otaTransfersAtOnce
    /// How long a device told Busy waits before it asks again (`HubConstants.otaBusyRetrySeconds`).
    public static let busyRetrySeconds = HubConstants.otaBusyRetrySeconds

    public let images: OTAImageStore
    let hubNodeID: UInt64
    private let state = Mutex(State())
    private let random: any RandomSource

    public init(images: OTAImageStore, hubNodeID: UInt64, random: any RandomSource = SystemRandom()) {
        self.images = images
        self.hubNodeID = hubNodeID
        self.random = random
    }

    /// What the provider does from now on, until the sequence is dropped.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = continuation
            return state.nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Offers `nodeID` this image at its next QueryImage, rather than the newest (a user's chosen version).
    public func pin(_ entry: OTAImageStore.Entry?, for nodeID: UInt64) {
        state.withLock { $0.pinned[nodeID] = entry }
    }

    private func observe(_ event: Event) {
        for observer in state.withLock({ Array($0.observers.values) }) { observer.yield(event) }
    }

    typealias Cluster = OtaSoftwareUpdateProviderCluster

    /// QueryImage from `nodeID` (§11.21.6.5.1) at `now`: the answer, and the offer recorded when there is one.
    func answer(
        _ query: Cluster.Commands.QueryImage, from nodeID: UInt64, now: Instant
    ) -> Cluster.Commands.QueryImageResponse {
        guard query.protocolsSupported.contains(.bdxSynchronous) else {
            return .init(status: .downloadProtocolNotSupported)
        }
        let pinned = state.withLock { $0.pinned[nodeID] }.flatMap { entry in
            entry.header.vendorID == query.vendorID && entry.header.productID == query.productID
                && entry.header.isUpgrade(from: query.softwareVersion) ? entry : nil
        }
        guard
            let entry = pinned
                ?? images.newest(
                    vendorID: query.vendorID, productID: query.productID, applyingTo: query.softwareVersion)
        else {
            return .init(status: .notAvailable)
        }
        let token = random.bytes(HubConstants.otaUpdateTokenLength)
        let offered = state.withLock { state -> Bool in
            state.places = state.places.filter {
                $0.value.transfers > 0 || now < $0.value.offered + HubConstants.otaOfferLifetime
            }
            guard state.places[nodeID] != nil || state.places.count < HubConstants.otaTransfersAtOnce else {
                return false
            }
            state.places[nodeID, default: Place(offered: now)].offered = now
            // A node holds one offer: a new query replaces the one before.
            state.offers = state.offers.filter { $0.value.nodeID != nodeID }
            state.offers[token] = Offer(nodeID: nodeID, entry: entry)
            return true
        }
        guard offered else {
            observe(.busy(nodeID: nodeID))
            return .init(status: .busy, delayedActionTime: HubConstants.otaBusyRetrySeconds)
        }
        observe(.offered(nodeID: nodeID, version: entry.header.softwareVersion))
        return .init(
            status: .updateAvailable, delayedActionTime: 0,
            imageURI: Self.imageURI(hubNodeID: hubNodeID, designator: entry.designator),
            softwareVersion: entry.header.softwareVersion,
            softwareVersionString: entry.header.softwareVersionString, updateToken: token, userConsentNeeded: false)
    }

    /// ApplyUpdateRequest (§11.21.6.5.3): the device has the image; the hub has no reason to hold it back.
    func answer(
        _ request: Cluster.Commands.ApplyUpdateRequest, from nodeID: UInt64
    )
        -> Cluster.Commands.ApplyUpdateResponse
    {
        observe(.applying(nodeID: nodeID, version: request.newVersion))
        return .init(action: .proceed, delayedActionTime: 0)
    }

    /// NotifyUpdateApplied (§11.21.6.5.5): the device runs the new version; its offer is done with.
    func heard(_ notice: Cluster.Commands.NotifyUpdateApplied, from nodeID: UInt64) {
        state.withLock { state in
            if state.offers[notice.updateToken]?.nodeID == nodeID { state.offers[notice.updateToken] = nil }
            state.pinned[nodeID] = nil
        }
        observe(.applied(nodeID: nodeID, version: notice.softwareVersion))
    }

    /// §11.21.2.3 (BDX URI): `bdx://` then the provider's node ID in 16 upper-case hexadecimal digits, then `/` and
    /// the file designator.
    static func imageURI(hubNodeID: UInt64, designator: String) -> String {
        let digits = String(hubNodeID, radix: 16, uppercase: true)
        return "bdx://" + String(repeating: "0", count: 16 - digits.count) + digits + "/" + designator
    }

    private enum TransferStart {
        case begun(Offer)
        case refused(BDXStatus)
    }

    /// The offer `nodeID` holds for `designator`, in the place the offer took (taken again if it lapsed and one is
    /// free); or the status to refuse with.
    private func beginTransfer(of designator: String, to nodeID: UInt64, now: Instant) -> TransferStart {
        state.withLock { state in
            guard
                let offer = state.offers.values.first(where: {
                    $0.nodeID == nodeID && $0.entry.designator == designator
                })
            else { return .refused(.fileDesignatorUnknown) }
            if state.places[nodeID] == nil {
                guard state.places.count < HubConstants.otaTransfersAtOnce else { return .refused(.responderBusy) }
                state.places[nodeID] = Place(offered: now)
            }
            state.places[nodeID]?.transfers += 1
            return .begun(offer)
        }
    }

    /// A transfer to `nodeID` ended: its place is given up with its last transfer; a failed one takes its offer and
    /// its pinned version with it (the next update starts from a new query).
    private func endTransfer(to nodeID: UInt64, finished: Bool) {
        state.withLock { state in
            state.places[nodeID]?.transfers -= 1
            if state.places[nodeID]?.transfers ?? 0 <= 0 { state.places[nodeID] = nil }
            if !finished {
                state.offers = state.offers.filter { $0.value.nodeID != nodeID }
                state.pinned[nodeID] = nil
            }
        }
    }
}

extension OTAProvider: ProtocolHandler {
    /// A device's BDX exchange: a ReceiveInit for the image offered to it, served if a transfer place is free.
    public func accept(
        _ exchange: ExchangeHandle, _ first: ExchangeMessage, from peer: SessionPeer, over transport: MatterTransport
    ) async {
        guard !peer.isPASE, peer.fabricIndex != 0,
            case .receiveInit(let proposal)? = try? BDXMessage(opcode: first.opcode, payload: first.payload)
        else {
            await BDXExchange.refuse(exchange, .unexpectedMessage, over: transport)
            return
        }
        let designator = String(decoding: proposal.fileDesignator, as: UTF8.self)
        let offer: Offer
        switch beginTransfer(of: designator, to: peer.nodeID, now: transport.clock.now) {
        case .begun(let begun): offer = begun
        case .refused(let status):
            await BDXExchange.refuse(exchange, status, over: transport)
            return
        }
        let file: [UInt8]
        do {
            file = try await images.contents(of: offer.entry)
        } catch {
            endTransfer(to: peer.nodeID, finished: false)
            await BDXExchange.refuse(exchange, .transferFailedUnknownError, over: transport)
            observe(.transferEnded(nodeID: peer.nodeID, .failed(nil, reason: "\(error)", byPeer: false)))
            return
        }
        let sender = BDXSender(file: file, designator: proposal.fileDesignator, now: transport.clock.now)
        let nodeID = peer.nodeID
        let end = await BDXExchange.serve(sender, first: first, on: exchange, over: transport) { sent, total in
            self.observe(.transferred(nodeID: nodeID, sent: sent, of: total))
        }
        endTransfer(to: nodeID, finished: end == .finished)
        observe(.transferEnded(nodeID: nodeID, end))
    }
}

/// The OTA Software Update Provider cluster (§11.21.6) on the hub node's endpoint 0: its commands, answered by the
/// provider.
struct OTAProviderServer: ClusterServer {
    private typealias Cluster = OtaSoftwareUpdateProviderCluster
    let provider: OTAProvider

    var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision, attributes: [],
            acceptedCommands: [
                CommandDescription(Cluster.Commands.QueryImage.self),
                CommandDescription(Cluster.Commands.ApplyUpdateRequest.self),
                CommandDescription(Cluster.Commands.NotifyUpdateApplied.self),
            ],
            generatedCommands: [
                Cluster.Commands.QueryImageResponse.id.rawValue, Cluster.Commands.ApplyUpdateResponse.id.rawValue,
            ])
    }

    func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        .failure(.unsupportedAttribute)
    }

    mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        // Only a device of the fabric, over CASE, asks for images.
        guard request.context.authMode == .case else { return .status(.unsupportedAccess) }
        let nodeID = request.context.subject
        switch command {
        case Cluster.Commands.QueryImage.id.rawValue:
            guard let query = Cluster.Commands.QueryImage.decode(fields) else { return .status(.invalidCommand) }
            return provider.answer(query, from: nodeID, now: node.now).outcome
        case Cluster.Commands.ApplyUpdateRequest.id.rawValue:
            guard let request = Cluster.Commands.ApplyUpdateRequest.decode(fields) else {
                return .status(.invalidCommand)
            }
            return provider.answer(request, from: nodeID).outcome
        case Cluster.Commands.NotifyUpdateApplied.id.rawValue:
            guard let notice = Cluster.Commands.NotifyUpdateApplied.decode(fields) else {
                return .status(.invalidCommand)
            }
            provider.heard(notice, from: nodeID)
            return .success
        default: return .status(.unsupportedCommand)
        }
    }
}
