/// The attribute and event reports of one whole report, its chunks joined in order.
public struct InteractionReport: Hashable, Sendable {
    public var attributeReports: [AttributeReportIB]
    public var eventReports: [EventReportIB]

    public init(attributeReports: [AttributeReportIB] = [], eventReports: [EventReportIB] = []) {
        self.attributeReports = attributeReports
        self.eventReports = eventReports
    }

    /// True for a keep-alive: a report that carries nothing.
    public var isEmpty: Bool {
        attributeReports.isEmpty && eventReports.isEmpty
    }
}
