import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

@testable import HomeHub
@testable import MatterNode

@Suite(.timeLimit(.minutes(1))) struct NodeInterviewTests {
    private static func data(
        _ endpoint: UInt16, _ cluster: UInt32, _ attribute: UInt32, _ value: TLVValue
    ) -> AttributeReportIB {
        .data(
            AttributeDataIB(
                dataVersion: 1, path: AttributePathIB(endpoint: endpoint, cluster: cluster, attribute: attribute),
                data: TLVElement(value)))
    }

    private static func deviceTypes(_ types: [(UInt32, UInt16)]) -> TLVValue {
        .array(
            types.map {
                TLVElement(
                    DescriptorCluster.DeviceTypeStruct(deviceType: DeviceTypeID(rawValue: $0.0), revision: $0.1)
                        .tlvValue())
            })
    }

    /// A light: Basic Information, a root endpoint with part 1, an on/off light on endpoint 1.
    private static let basicInformation = [
        data(0, 0x0028, 1, .utf8("Loopback Lights")), data(0, 0x0028, 2, .unsigned(0xFFF1)),
        data(0, 0x0028, 3, .utf8("Lamp")), data(0, 0x0028, 4, .unsigned(0x8000)), data(0, 0x0028, 15, .utf8("SN-1")),
    ]
    private static let descriptors = [
        data(0, 0x001D, 0, deviceTypes([(0x0016, 3)])),
        data(0, 0x001D, 1, .array([TLVElement(.unsigned(0x1D)), TLVElement(.unsigned(0x28))])),
        data(0, 0x001D, 3, .array([TLVElement(.unsigned(1))])),
        data(1, 0x001D, 0, deviceTypes([(0x0100, 3)])),
        data(1, 0x001D, 1, .array([TLVElement(.unsigned(0x06))])),
    ]
    private static let expected = NodeDescription(
        vendorID: 0xFFF1, vendorName: "Loopback Lights", productID: 0x8000, productName: "Lamp", serialNumber: "SN-1",
        endpoints: [
            EndpointDescription(
                endpoint: 0, deviceTypes: [DescriptorCluster.DeviceTypeStruct(deviceType: 0x16, revision: 3)],
                serverClusters: [0x1D, 0x28],
                clientClusters: [], parts: [1]),
            EndpointDescription(
                endpoint: 1, deviceTypes: [DescriptorCluster.DeviceTypeStruct(deviceType: 0x100, revision: 3)],
                serverClusters: [0x06],
                clientClusters: [], parts: []),
        ])

    @Test func interviewsThroughTheChunkedPrimingReportOfASubscription() async throws {
        let requests = Received<UInt8>()
        let device = try await LoopbackInteractionDevice { exchange in
            let opcode = try #require(exchange.first?.opcode)
            await requests.append(opcode)
            let request = try SubscribeRequestMessage(payload: exchange.first?.payload ?? [])
            #expect(request.attributeRequests == NodeInterview.paths)
            try await exchange.send(
                ReportDataMessage(subscriptionID: 9, attributeReports: Self.basicInformation, moreChunkedMessages: true)
            )
            #expect(try await exchange.receiveStatus() == .success)
            try await exchange.send(ReportDataMessage(subscriptionID: 9, attributeReports: Self.descriptors))
            #expect(try await exchange.receiveStatus() == .success)
            try await exchange.send(SubscribeResponseMessage(subscriptionID: 9, maxInterval: 60))
            await exchange.close()
        }
        #expect(try await NodeInterview.interview(device.client).description == Self.expected)
        #expect(await requests.values == [InteractionModelOpcode.subscribeRequest.rawValue])
        #expect(await device.client.subscriptions.isEmpty)
        await device.stop()
    }

    @Test func aWholeNodeCacheAlsoNamesBridgedDevicesByTheirLabels() throws {
        var cache = AttributeCache()
        cache.apply(Self.basicInformation + Self.descriptors + [Self.data(1, 0x0039, 5, .utf8("Porch light"))])
        let description = try NodeInterview.describe(cache)
        #expect(description.endpoints.map(\.label) == [nil, "Porch light"])
    }

    @Test func readsWhenTheDeviceRefusesToSubscribe() async throws {
        let requests = Received<UInt8>()
        let device = try await LoopbackInteractionDevice { exchange in
            let opcode = try #require(exchange.first?.opcode)
            await requests.append(opcode)
            if opcode == InteractionModelOpcode.subscribeRequest.rawValue {
                try await exchange.send(StatusResponseMessage(status: .resourceExhausted))
            } else {
                #expect(
                    try ReadRequestMessage(payload: exchange.first?.payload ?? []).attributeRequests
                        == NodeInterview.paths)
                try await exchange.send(
                    ReportDataMessage(
                        attributeReports: Self.basicInformation + Self.descriptors, suppressResponse: true))
            }
            await exchange.close()
        }
        #expect(try await NodeInterview.interview(device.client).description == Self.expected)
        #expect(
            await requests.values == [
                InteractionModelOpcode.subscribeRequest.rawValue, InteractionModelOpcode.readRequest.rawValue,
            ])
        await device.stop()
    }

    /// Descriptor TagList (§9.5.6.5) is kept per endpoint, in the device's order, label and manufacturer code included.
    @Test func eachEndpointKeepsItsTagList() throws {
        let tags = [
            SemanticTagStruct(mfgCode: .null, namespaceID: 0x08, tag: 0x01),
            SemanticTagStruct(mfgCode: .value(0xFFF1), namespaceID: 0x80, tag: 0x02, label: .value("Bed")),
        ]
        var cache = AttributeCache()
        cache.apply(
            Self.basicInformation + Self.descriptors + [
                Self.data(1, 0x001D, 4, .array(tags.map { TLVElement($0.tlvValue()) }))
            ])
        let description = try NodeInterview.describe(cache)
        #expect(description.endpoints.map(\.tags) == [[], tags])
    }

    @Test func aMissingOrMistypedAttributeIsNamed() {
        var cache = AttributeCache()
        cache.apply(Array(Self.basicInformation.dropFirst()) + Self.descriptors)
        #expect(throws: NodeInterviewError.missingAttribute("BasicInformation.VendorName")) {
            try NodeInterview.describe(cache)
        }
        cache.apply([Self.data(0, 0x0028, 1, .unsigned(5))])
        #expect {
            try NodeInterview.describe(cache)
        } throws: { error in
            "\(error)"
                == "interview: BasicInformation.VendorName on endpoint 0: expected UTF-8 string, found unsigned integer"
        }
    }
}
