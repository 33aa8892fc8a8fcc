import MatterTLV

// Matter Core §10.7.3 MoreChunkedMessages (reports) and §10.7.10 (invoke responses): a reply too large
// for one message goes as several, each as full as `InteractionConstants.maximumServerPayload` allows, all but the
// last flagged MoreChunkedMessages. A list attribute larger than half a message is sent, as §10.6.4.3 describes,
// as an empty list followed by one append per item, so that it fills messages instead of needing one to itself. An item too large alone still goes, alone, in its own message.
enum MessageChunker {
    /// The ReportData payloads of one report. `suppressLastResponse` marks the last one SuppressResponse (a read).
    static func reportData(
        attributeReports: [AttributeReportIB], eventReports: [EventReportIB], subscriptionID: UInt32?,
        suppressLastResponse: Bool
    ) -> [[UInt8]] {
        let overhead =
            ReportDataMessage(subscriptionID: subscriptionID, moreChunkedMessages: true, suppressResponse: true)
            .encoded().count + 2 * arrayOverhead
        let items = attributeReports.flatMap(splitLongList).map(Item.attribute) + eventReports.map(Item.event)
        let groups = pack(items, overhead: overhead)
        return groups.enumerated().map { index, group in
            let last = index == groups.count - 1
            return ReportDataMessage(
                subscriptionID: subscriptionID,
                attributeReports: group.compactMap { if case .attribute(let report) = $0 { report } else { nil } },
                eventReports: group.compactMap { if case .event(let report) = $0 { report } else { nil } },
                moreChunkedMessages: !last, suppressResponse: last && suppressLastResponse
            ).encoded()
        }
    }

    /// The InvokeResponse payloads of one invoke.
    static func invokeResponses(_ responses: [InvokeResponseIB]) -> [[UInt8]] {
        let overhead = InvokeResponseMessage(invokeResponses: [], moreChunkedMessages: true).encoded().count
        let groups = pack(responses.map(Item.invoke), overhead: overhead)
        return groups.enumerated().map { index, group in
            InvokeResponseMessage(
                invokeResponses: group.compactMap { if case .invoke(let response) = $0 { response } else { nil } },
                moreChunkedMessages: index < groups.count - 1
            ).encoded()
        }
    }

    /// A tagged array's start (control and tag) and end-of-container octets.
    private static let arrayOverhead = 3

    private enum Item {
        case attribute(AttributeReportIB)
        case event(EventReportIB)
        case invoke(InvokeResponseIB)

        var encodedSize: Int {
            let value =
                switch self {
                case .attribute(let report): report.tlvValue()
                case .event(let report): report.tlvValue()
                case .invoke(let response): response.tlvValue()
                }
            return TLVWriter.encode(TLVElement(value)).count
        }
    }

    /// Fills messages in order; always at least one (an empty report is a message too).
    private static func pack(_ items: [Item], overhead: Int) -> [[Item]] {
        let budget = InteractionConstants.maximumServerPayload - overhead
        var groups: [[Item]] = [[]]
        var used = 0
        for item in items {
            let size = item.encodedSize
            if used + size > budget, !(groups[groups.count - 1].isEmpty) {
                groups.append([])
                used = 0
            }
            groups[groups.count - 1].append(item)
            used += size
        }
        return groups
    }

    /// A list value too large for one message, as its replacement by an empty list and one append per item.
    private static func splitLongList(_ report: AttributeReportIB) -> [AttributeReportIB] {
        guard case .data(let data) = report, data.path.listIndex == nil, case .array(let items) = data.data.value,
            Item.attribute(report).encodedSize > InteractionConstants.maximumServerPayload / 2
        else {
            return [report]
        }
        var appended = data.path
        appended.listIndex = .append
        return [.data(AttributeDataIB(dataVersion: data.dataVersion, path: data.path, data: TLVElement(.array([]))))]
            + items.map { .data(AttributeDataIB(dataVersion: data.dataVersion, path: appended, data: $0)) }
    }
}
