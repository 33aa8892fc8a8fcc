import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

@Suite struct ReadRequestMessageTests {
    @Test func decodesTheReadAnIPhoneSent() throws {
        let request = try ReadRequestMessage(payload: CapturedMessages.appleReadRequest)
        #expect(request.attributeRequests.count == 9)
        #expect(request.attributeRequests[0] == AttributePathIB(endpoint: 0, cluster: 0x30, attribute: 4))
        #expect(request.attributeRequests[5] == AttributePathIB(endpoint: 0, cluster: 0x30, attribute: 0x0C))
        #expect(request.attributeRequests[8] == AttributePathIB(endpoint: 0, cluster: 0x38))
        #expect(request.attributeRequests[8].concrete == nil)
        #expect(request.isFabricFiltered == false)
        #expect(request.eventRequests.isEmpty && request.dataVersionFilters.isEmpty)
        #expect(request.interactionModelRevision == 12)
    }

    @Test func encodesTheSameBytesAsTheIPhone() {
        let paths: [(UInt32, UInt32?)] = [
            (0x30, 4), (0x30, 0), (0x30, 1), (0x30, 2), (0x30, 3), (0x30, 0x0C), (0x28, 2), (0x28, 4), (0x38, nil),
        ]
        let request = ReadRequestMessage(
            attributeRequests: paths.map { AttributePathIB(endpoint: 0, cluster: $0.0, attribute: $0.1) },
            isFabricFiltered: false)
        #expect(request.encoded() == CapturedMessages.appleReadRequest)
    }

    @Test func decodesChipToolsReadWithWildcardEndpointsAndReencodesIt() throws {
        let request = try ReadRequestMessage(payload: CapturedMessages.chipToolReadRequest)
        #expect(request.attributeRequests.count == 8)
        #expect(request.attributeRequests.first == AttributePathIB(cluster: 0x31, attribute: 0xFFFC))
        #expect(request.attributeRequests.last == AttributePathIB(cluster: 0x31, attribute: 3))
        #expect(request.isFabricFiltered)
        #expect(request.interactionModelRevision == 1)
        #expect(request.encoded() == CapturedMessages.chipToolReadRequest)
    }

    @Test func aMissingFabricFilteredFlagIsAnError() {
        // {0: [ [endpoint 1] ], 0xFF: 12}: FabricFiltered (tag 3) left out.
        #expect(throws: InteractionError.malformed(.readRequest, .missingField(3))) {
            try ReadRequestMessage(payload: hex("15 36 00 17 24 02 01 18 18 24 ff 0c 18"))
        }
    }
}
