// Matter Core §8.4.3 Report Data Action, chunked (§10.7.3 MoreChunkedMessages): one report may come as several ReportData messages, all but the last
// flagged MoreChunkedMessages. Joins them, bounding how many a peer may send.
struct ReportAssembler: Sendable {
    private var report = InteractionReport()
    private(set) var chunks = 0

    /// Adds one chunk; returns the whole report when it was the last one, and starts over.
    mutating func add(_ message: ReportDataMessage) throws(InteractionError) -> InteractionReport? {
        chunks += 1
        guard chunks <= InteractionConstants.maximumReportChunks else {
            throw .tooManyChunks(limit: InteractionConstants.maximumReportChunks)
        }
        report.attributeReports += message.attributeReports
        report.eventReports += message.eventReports
        guard !message.moreChunkedMessages else { return nil }
        defer { self = ReportAssembler() }
        return report
    }
}
