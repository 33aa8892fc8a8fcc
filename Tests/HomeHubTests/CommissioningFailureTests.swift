import HomeRecords
import MatterInteraction
import MatterNode
import MatterSecureChannel
import Testing

@testable import HomeHub

@Suite struct CommissioningFailureTests {
    @Test func sessionEstablishmentFailuresAreTold() {
        #expect(CommissioningFailure(SessionEstablishmentError.rejected("PASE", .wrongPasscode)).kind == .wrongPasscode)
        #expect(
            CommissioningFailure(SessionEstablishmentError.rejected("PASE", .wrongPasscode)).reason
                == "wrong passcode: the device's PASE confirmation does not match")
        #expect(
            CommissioningFailure(SessionEstablishmentError.transport("PASE", "no answer on exchange 1 within 30 s"))
                .kind == .noAnswer)
        #expect(CommissioningFailure(SessionEstablishmentError.rejected("CASE", .noSharedTrustRoots)).kind == .refused)
    }

    /// A device in another attempt's commissioning answers PASE with BUSY: the failure says what to do about it.
    @Test func aBusyDeviceIsExplained() {
        let busy = StatusReport(generalCode: .busy, secureChannelCode: .busy)
        let failure = CommissioningFailure(SessionEstablishmentError.rejected("PASE", .peerRejected(busy)))
        #expect(failure.kind == .deviceBusy)
        #expect(failure.reason.contains("in a commissioning another attempt started"))
        #expect(failure.reason.contains("or its commissioning window is closed"))
        #expect(failure.reason.contains("at most 60 s"))
        let other = StatusReport(generalCode: .failure, secureChannelCode: .invalidParameter)
        #expect(CommissioningFailure(SessionEstablishmentError.rejected("PASE", .peerRejected(other))).kind == .refused)
    }

    @Test func interactionFailuresAreToldBySilenceOrRefusal() {
        let operation = "invoke GeneralCommissioning.ArmFailSafe on endpoint 0"
        #expect(
            CommissioningFailure(InteractionClientError(operation: operation, reason: .timedOut(.seconds(30)))).kind
                == .noAnswer)
        #expect(
            CommissioningFailure(
                InteractionClientError(
                    operation: operation, reason: .interaction(.status(StatusIB(status: .busy), path: nil)))
            ).kind == .refused)
        #expect(
            CommissioningFailure(InteractionClientError(operation: operation, reason: .transportShutDown)).kind
                == .hubFailure)
    }

    @Test func theHubsOwnFailuresAreHubFailures() {
        let failure = CommissioningFailure(HubStoreError.unknownNode(0x42))
        #expect(failure.kind == .hubFailure)
        #expect(failure.reason.hasPrefix("the hub's store: "))
        // A failure thrown as such keeps its kind.
        #expect(
            CommissioningFailure(CommissioningFailure(.deviceNotFound, "none"))
                == CommissioningFailure(.deviceNotFound, "none"))
    }
}

@Suite struct FabricLabelTests {
    /// §11.18.6.11: a label is at most 32 bytes; a longer home name is cut at a character boundary.
    @Test func theHomesNameIsCutToThirtyTwoBytesAtACharacterBoundary() {
        #expect(FabricLabel.of(home: "Home") == "Home")
        #expect(FabricLabel.of(home: String(repeating: "a", count: 40)) == String(repeating: "a", count: 32))
        // 31 ASCII bytes, then a 2-byte "é": it does not fit, and nothing after it is taken either.
        #expect(FabricLabel.of(home: String(repeating: "b", count: 31) + "éc") == String(repeating: "b", count: 31))
    }
}
