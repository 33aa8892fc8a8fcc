import HomeHub
import HomeRecords
import MatterInteraction
import MatterNode

extension InteractionClient {
    /// Subscribes, with the later reports as a sequence, as a test reads them: it finishes, throwing, when the
    /// subscription ends, and never after `cancel()`, which ends it silently.
    func subscribeWithReports(
        _ request: SubscribeRequestMessage
    ) async throws -> (subscription: Subscription, reports: AsyncThrowingStream<InteractionReport, any Error>) {
        let (reports, continuation) = AsyncThrowingStream<InteractionReport, any Error>.makeStream()
        let subscription = try await subscribe(request) { update in
            switch update {
            case .report(let report): continuation.yield(report)
            case .ended(let error): continuation.finish(throwing: error)
            }
        }
        return (subscription, reports)
    }
}
