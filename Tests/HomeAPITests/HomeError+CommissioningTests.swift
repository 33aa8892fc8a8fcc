import HomeHub
import HomeRecords
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct HomeErrorCommissioningTests {
    @Test(arguments: [
        (CommissioningFailure.Kind.noAnswer, HomeError.Code.deadlineExceeded),
        (.deviceNotFound, .notFound),
        (.wrongPasscode, .unauthenticated),
        (.untrustedDevice, .permissionDenied),
        (.fabricTableFull, .resourceExhausted),
        (.alreadyCommissioned, .alreadyExists),
        (.refused, .aborted),
        (.unsupported, .unimplemented),
        (.hubFailure, .internal),
    ])
    func aFailedStepMapsByKindAndNamesTheStep(_ kind: CommissioningFailure.Kind, _ code: HomeError.Code) {
        let error = HomeError(
            commissioning: CommissioningError.stepFailed(
                .addOperationalCertificate, CommissioningFailure(kind, "the reason")))
        #expect(error == HomeError(code, "adding the device: add NOC failed: the reason"))
    }

    @Test func theWordsOfAReasonDoNotDecideTheCode() {
        // A device's debug text may say anything; only the kind counts.
        let failure = CommissioningFailure(.refused, "the device answered: TableFull wrong passcode no answer within")
        #expect(HomeError(commissioning: CommissioningError.stepFailed(.passcodeSession, failure)).code == .aborted)
    }
}
