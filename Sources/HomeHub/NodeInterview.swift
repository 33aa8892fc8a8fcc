import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterNode

/// Reads a node's Basic Information and the Descriptor of every endpoint. Some devices (CircuitMatter) cannot
/// answer a read that needs more than one packet but chunk a priming report correctly, so the interview primes a
/// subscription to those clusters, keeps its priming report and drops the subscription; it reads only when the
/// device refuses to subscribe.
public enum NodeInterview {
    /// Basic Information on the root endpoint, and Descriptor on every endpoint.
    public static let paths = [
        AttributePathIB(endpoint: 0, cluster: BasicInformationCluster.id.rawValue),
        AttributePathIB(cluster: DescriptorCluster.id.rawValue),
    ]

    /// What an interview learned: the node described, and the attributes it was described from (the first of the
    /// node's attribute cache, so a command right after commissioning knows what each endpoint serves).
    public struct Result: Sendable {
        public let description: NodeDescription
        public let cache: AttributeCache
    }

    public static func interview(
        _ client: InteractionClient, timeout: Duration = NodeTiming.interactionResponse
    ) async throws(NodeInterviewError) -> Result {
        var cache = AttributeCache()
        do {
            let request = SubscribeRequestMessage(
                minIntervalFloor: 0, maxIntervalCeiling: HubTiming.interviewMaxIntervalCeiling,
                attributeRequests: paths)
            let subscription = try await client.subscribe(request, timeout: timeout)
            await subscription.cancel()
            cache.apply(subscription.priming.attributeReports)
        } catch  where error.status != nil {
            do {
                cache.apply(try await client.read(paths, timeout: timeout).attributeReports)
            } catch {
                throw .interaction(error)
            }
        } catch {
            throw .interaction(error)
        }
        return Result(description: try describe(cache), cache: cache)
    }

    /// The node as the cached Basic Information and Descriptor attributes (and bridged devices' labels, when the
    /// cache holds them) describe it.
    public static func describe(_ cache: AttributeCache) throws(NodeInterviewError) -> NodeDescription {
        let endpoints = Set(cache.paths.filter { $0.cluster == DescriptorCluster.id.rawValue }.map(\.endpoint)).sorted()
        var descriptions: [EndpointDescription] = []
        for endpoint in endpoints {
            descriptions.append(
                EndpointDescription(
                    endpoint: endpoint,
                    deviceTypes: try value(DescriptorCluster.Attributes.deviceTypeList, endpoint: endpoint, in: cache)
                        ?? [],
                    serverClusters: try value(DescriptorCluster.Attributes.serverList, endpoint: endpoint, in: cache)
                        ?? [],
                    clientClusters: try value(DescriptorCluster.Attributes.clientList, endpoint: endpoint, in: cache)
                        ?? [],
                    parts: try value(DescriptorCluster.Attributes.partsList, endpoint: endpoint, in: cache) ?? [],
                    tags: try value(DescriptorCluster.Attributes.tagList, endpoint: endpoint, in: cache) ?? [],
                    label: try value(
                        BridgedDeviceBasicInformationCluster.Attributes.nodeLabel, endpoint: endpoint, in: cache)
                ))
        }
        return NodeDescription(
            vendorID: try required(BasicInformationCluster.Attributes.vendorID, in: cache),
            vendorName: try required(BasicInformationCluster.Attributes.vendorName, in: cache),
            productID: try required(BasicInformationCluster.Attributes.productID, in: cache),
            productName: try required(BasicInformationCluster.Attributes.productName, in: cache),
            serialNumber: try value(BasicInformationCluster.Attributes.serialNumber, endpoint: 0, in: cache),
            uniqueID: try value(BasicInformationCluster.Attributes.uniqueID, endpoint: 0, in: cache),
            softwareVersionString: try value(
                BasicInformationCluster.Attributes.softwareVersionString, endpoint: 0, in: cache),
            endpoints: descriptions
        )
    }

    private static func value<Value>(
        _ attribute: AttributeDefinition<Value>, endpoint: UInt16,
        in cache: AttributeCache
    ) throws(NodeInterviewError) -> Value? {
        do {
            return try cache.value(attribute, endpoint: endpoint)
        } catch {
            throw .malformedAttribute(error)
        }
    }

    private static func required<Value>(
        _ attribute: AttributeDefinition<Value>, in cache: AttributeCache
    ) throws(NodeInterviewError) -> Value {
        guard let value = try value(attribute, endpoint: 0, in: cache) else {
            throw .missingAttribute(attribute.qualifiedName)
        }
        return value
    }
}

/// Why an interview failed.
public enum NodeInterviewError: Error, Hashable, Sendable, CustomStringConvertible {
    case interaction(InteractionClientError)
    /// The device did not report an attribute every node has.
    case missingAttribute(String)
    case malformedAttribute(AttributeDecodingError)

    public var description: String {
        switch self {
        case .interaction(let error): "interview: \(error)"
        case .missingAttribute(let name): "interview: the device did not report \(name) on endpoint 0"
        case .malformedAttribute(let error): "interview: \(error)"
        }
    }
}
