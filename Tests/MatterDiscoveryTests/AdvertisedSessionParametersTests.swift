import Testing

@testable import MatterDiscovery

@Suite struct AdvertisedSessionParametersTests {
    /// Matter Core §4.3.4: intervals in whole milliseconds, T as a number, ICD as 0 or 1.
    @Test func writesMillisecondsAndFlags() throws {
        let parameters = AdvertisedSessionParameters(
            sessionIdleInterval: .seconds(3600), sessionActiveInterval: .milliseconds(4000),
            sessionActiveThreshold: .milliseconds(65535),
            tcpSupport: 6, isLongIdleTimeICD: true
        )
        #expect(
            try parameters.txtEntries().map(\.description) == ["SII=3600000", "SAI=4000", "SAT=65535", "T=6", "ICD=1"])
        #expect(try AdvertisedSessionParameters().txtEntries().isEmpty)
        #expect(try AdvertisedSessionParameters(isLongIdleTimeICD: false).txtEntries().map(\.description) == ["ICD=0"])
    }

    @Test func refusesValuesBeyondTheirLimits() {
        #expect(
            throws: AdvertisementError.intervalOutOfRange(
                key: "SII", .milliseconds(3_600_001), maximumMilliseconds: 3_600_000)
        ) {
            try AdvertisedSessionParameters(sessionIdleInterval: .milliseconds(3_600_001)).txtEntries()
        }
        #expect(
            throws: AdvertisementError.intervalOutOfRange(key: "SAT", .milliseconds(65536), maximumMilliseconds: 65535)
        ) {
            try AdvertisedSessionParameters(sessionActiveThreshold: .milliseconds(65536)).txtEntries()
        }
        #expect(
            throws: AdvertisementError.intervalOutOfRange(key: "SAI", .milliseconds(-1), maximumMilliseconds: 3_600_000)
        ) {
            try AdvertisedSessionParameters(sessionActiveInterval: .milliseconds(-1)).txtEntries()
        }
    }
}
