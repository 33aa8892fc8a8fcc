import MatterMessaging
import MatterTLV

// Matter Core §8.4 Read Interaction, server side: ReadRequest → ReportData chunks (the last SuppressResponse).
// Paths follow §8.9.2 (wildcards expand silently over what exists and may be read) and §8.4.3 (a concrete path
// that cannot be read gets a status: UNSUPPORTED_ENDPOINT, _CLUSTER, _ATTRIBUTE or _EVENT, then UNSUPPORTED_ACCESS).
extension InteractionServer {
    mutating func read(
        _ payload: [UInt8], on exchange: ExchangeHandle, context: AccessContext, now: Instant
    ) -> [ServerAction] {
        guard let request = try? ReadRequestMessage(payload: payload),
            !(request.attributeRequests.isEmpty && request.eventRequests.isEmpty)
        else {
            return refuse(exchange, .invalidAction)
        }
        let attributes = attributeReports(
            for: request.attributeRequests, skipping: request.dataVersionFilters,
            isFabricFiltered: request.isFabricFiltered, context: context)
        let minimum = request.eventFilters.map { $0.eventMinimum }.max() ?? 0
        let events =
            eventStatuses(for: request.eventRequests, context: context)
            + eventData(for: request.eventRequests, from: minimum, context: context).reports
        let chunks = MessageChunker.reportData(
            attributeReports: attributes, eventReports: events, subscriptionID: nil,
            suppressLastResponse: true)
        return sendSeries(.reportData, chunks, then: .close, on: exchange, now: now)
    }

    // MARK: Attributes

    /// The reports for these request paths, in request order, leaving out clusters whose version a filter names.
    func attributeReports(
        for paths: [AttributePathIB], skipping filters: [DataVersionFilterIB], isFabricFiltered: Bool,
        context: AccessContext
    ) -> [AttributeReportIB] {
        var reports: [AttributeReportIB] = []
        for path in paths {
            if let concrete = path.concrete {
                if let report = concreteReport(
                    concrete, skipping: filters, isFabricFiltered: isFabricFiltered, context: context)
                {
                    reports.append(report)
                }
                continue
            }
            for endpoint in provider.endpoints where path.endpoint.map({ $0 == endpoint }) ?? true {
                for cluster in provider.clusters(on: endpoint) where path.cluster.map({ $0 == cluster.id }) ?? true {
                    let clusterPath = ConcreteClusterPath(endpoint: endpoint, cluster: cluster.id)
                    guard !isCurrent(clusterPath, per: filters) else { continue }
                    for id in GlobalAttribute.attributeIDs(of: cluster) where path.attribute.map({ $0 == id }) ?? true {
                        let concrete = ConcreteAttributePath(endpoint: endpoint, cluster: cluster.id, attribute: id)
                        guard let attribute = Self.attribute(id, of: cluster),
                            provider.isAllowed(
                                AccessRequest(cluster: clusterPath, privilege: attribute.readPrivilege), for: context),
                            case .success(let value) = readValue(
                                concrete, of: cluster, isFabricFiltered: isFabricFiltered, context: context)
                        else { continue }
                        reports.append(dataReport(concrete, value))
                    }
                }
            }
        }
        return reports
    }

    /// The report for one concrete path: its value, or the status saying why not; nil when a filter skips it.
    func concreteReport(
        _ path: ConcreteAttributePath, skipping filters: [DataVersionFilterIB], isFabricFiltered: Bool,
        context: AccessContext
    ) -> AttributeReportIB? {
        let cluster: ClusterDescription
        let attribute: AttributeDescription
        switch lookUp(path) {
        case .success(let found): (cluster, attribute) = found
        case .failure(let status): return statusReport(path, status)
        }
        guard
            provider.isAllowed(
                AccessRequest(cluster: path.clusterPath, privilege: attribute.readPrivilege), for: context)
        else {
            return statusReport(path, .unsupportedAccess)
        }
        guard !isCurrent(path.clusterPath, per: filters) else { return nil }
        switch readValue(path, of: cluster, isFabricFiltered: isFabricFiltered, context: context) {
        case .success(let value): return dataReport(path, value)
        case .failure(let status): return statusReport(path, status)
        }
    }

    /// The cluster and attribute a concrete path names, or the status for the first part that does not exist.
    func lookUp(
        _ path: ConcreteAttributePath
    ) -> Result<(ClusterDescription, AttributeDescription), InteractionModelStatus> {
        switch lookUp(endpoint: path.endpoint, cluster: path.cluster) {
        case .failure(let status):
            return .failure(status)
        case .success(let cluster):
            guard let attribute = Self.attribute(path.attribute, of: cluster) else {
                return .failure(.unsupportedAttribute)
            }
            return .success((cluster, attribute))
        }
    }

    func lookUp(endpoint: UInt16, cluster id: UInt32) -> Result<ClusterDescription, InteractionModelStatus> {
        guard provider.endpoints.contains(endpoint) else { return .failure(.unsupportedEndpoint) }
        guard let cluster = provider.clusters(on: endpoint).first(where: { $0.id == id }) else {
            return .failure(.unsupportedCluster)
        }
        return .success(cluster)
    }

    static func attribute(_ id: UInt32, of cluster: ClusterDescription) -> AttributeDescription? {
        GlobalAttribute.description(of: id) ?? cluster.attributes.first { $0.id == id }
    }

    /// A global attribute from the description, any other from the provider.
    func readValue(
        _ path: ConcreteAttributePath, of cluster: ClusterDescription, isFabricFiltered: Bool,
        context: AccessContext
    ) -> Result<TLVValue, InteractionModelStatus> {
        if let global = GlobalAttribute(rawValue: path.attribute) {
            return .success(global.value(of: cluster))
        }
        return provider.read(path, isFabricFiltered: isFabricFiltered, context: context)
    }

    /// True when a data version filter names this cluster at its current version (§10.6.3).
    func isCurrent(_ cluster: ConcreteClusterPath, per filters: [DataVersionFilterIB]) -> Bool {
        filters.contains { filter in
            filter.path.endpoint == cluster.endpoint && filter.path.cluster == cluster.cluster
                && filter.dataVersion == provider.dataVersion(of: cluster)
        }
    }

    func dataReport(_ path: ConcreteAttributePath, _ value: TLVValue) -> AttributeReportIB {
        .data(
            AttributeDataIB(
                dataVersion: provider.dataVersion(of: path.clusterPath), path: Self.pathIB(path),
                data: TLVElement(value)))
    }

    func statusReport(_ path: ConcreteAttributePath, _ status: InteractionModelStatus) -> AttributeReportIB {
        .status(AttributeStatusIB(path: Self.pathIB(path), status: StatusIB(status: status)))
    }

    static func pathIB(_ path: ConcreteAttributePath) -> AttributePathIB {
        AttributePathIB(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)
    }

    // MARK: Events

    /// A status for each concrete event path that names nothing that exists or may be read.
    func eventStatuses(for paths: [EventPathIB], context: AccessContext) -> [EventReportIB] {
        paths.compactMap { path in
            guard let endpoint = path.endpoint, let clusterID = path.cluster, let event = path.event else { return nil }
            let status: InteractionModelStatus
            switch lookUp(endpoint: endpoint, cluster: clusterID) {
            case .failure(let failure):
                status = failure
            case .success(let cluster) where !cluster.events.contains(event):
                status = .unsupportedEvent
            case .success:
                let request = AccessRequest(
                    cluster: ConcreteClusterPath(endpoint: endpoint, cluster: clusterID), privilege: .view)
                guard !provider.isAllowed(request, for: context) else { return nil }
                status = .unsupportedAccess
            }
            return .status(
                EventStatusIB(
                    path: EventPathIB(endpoint: endpoint, cluster: clusterID, event: event),
                    status: StatusIB(status: status)))
        }
    }

    /// The recorded events from `minimum` on that a path asks for and the subject may view, and the number after
    /// the last event looked at (where the next report starts).
    func eventData(
        for paths: [EventPathIB], from minimum: UInt64, context: AccessContext
    ) -> (reports: [EventReportIB], next: UInt64) {
        guard !paths.isEmpty else { return ([], minimum) }
        var reports: [EventReportIB] = []
        var next = minimum
        for event in provider.events(since: minimum) where event.eventNumber >= minimum {
            next = max(next, event.eventNumber < .max ? event.eventNumber + 1 : .max)
            guard let endpoint = event.path.endpoint, let cluster = event.path.cluster, let id = event.path.event,
                paths.contains(where: { Self.path($0, covers: endpoint, cluster, id) }),
                provider.isAllowed(
                    AccessRequest(cluster: ConcreteClusterPath(endpoint: endpoint, cluster: cluster), privilege: .view),
                    for: context)
            else { continue }
            reports.append(.data(event))
        }
        return (reports, next)
    }

    static func path(_ path: EventPathIB, covers endpoint: UInt16, _ cluster: UInt32, _ event: UInt32) -> Bool {
        (path.endpoint ?? endpoint) == endpoint && (path.cluster ?? cluster) == cluster
            && (path.event ?? event) == event
    }
}
