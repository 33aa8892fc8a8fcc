import MatterMessaging
import Testing

@Suite("MRPParameters")
struct MRPParametersTests {
    @Test func defaultsAreTheSpecDefaults() {
        #expect(MRPParameters.default.idleInterval == .milliseconds(500))
        #expect(MRPParameters.default.activeInterval == .milliseconds(300))
        #expect(MRPParameters.default.activeThreshold == .seconds(4))
    }

    @Test func usesTheActiveIntervalOnlyWithinTheThreshold() {
        let parameters = MRPParameters(
            idleInterval: .milliseconds(800), activeInterval: .milliseconds(200), activeThreshold: .seconds(2))
        let heard = milliseconds(1000)
        #expect(parameters.baseInterval(lastReceived: nil, now: heard) == .milliseconds(800))
        #expect(parameters.baseInterval(lastReceived: heard, now: heard) == .milliseconds(200))
        #expect(parameters.baseInterval(lastReceived: heard, now: milliseconds(3000)) == .milliseconds(200))
        #expect(parameters.baseInterval(lastReceived: heard, now: milliseconds(3000.001)) == .milliseconds(800))
    }
}
