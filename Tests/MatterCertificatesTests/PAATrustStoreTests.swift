import Foundation
import MatterCertificates
import Testing

@Suite struct PAATrustStoreTests {
    private let pemBundle = Array(
        """
        -----BEGIN CERTIFICATE-----
        MIIBnTCCAUKgAwIBAgIIPkgLCCqFJx8wCgYIKoZIzj0EAwIwHzEdMBsGA1UEAwwU
        TWF0dGVyIFRlc3QgUEFBIEZGRjEwIBcNMjEwNjI4MTQyMzQzWhgPOTk5OTEyMzEy
        MzU5NTlaMB8xHTAbBgNVBAMMFE1hdHRlciBUZXN0IFBBQSBGRkYxMFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAEG5isW7wR3GoXVaBbCsXha6AsRu5vwrvnb/fPbKeq
        Tp/R15jcvvtP6uIl03c8kTSMwm1JMTHjCWMtXp7zHRLek6NmMGQwEgYDVR0TAQH/
        BAgwBgEB/wIBATAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFO8Y4OzUZgQ03w28
        kR7UUhaZZoOfMB8GA1UdIwQYMBaAFO8Y4OzUZgQ03w28kR7UUhaZZoOfMAoGCCqG
        SM49BAMCA0kAMEYCIQDHQclgaMyReHFBbWrBPNiduu+Y+umYSwdnYoLTA7ksBgIh
        AKnXTWyUsSlCjlMtA1NSh6ay249U8Jy0xzHWv0PLW8pC
        -----END CERTIFICATE-----

        """.utf8)

    @Test func loadsDERAndPEMAndIndexesByKeyIdentifier() throws {
        let store = try PAATrustStore(files: [
            ("test-paa.der", TestPAA.noVIDDER), ("fff1.pem", pemBundle), ("notes.der", Array("hello".utf8)),
        ])
        #expect(store.certificates.map(\.derEncoded) == [TestPAA.noVIDDER, CHIPAttestationVectors.paa])
        #expect(store.skippedFiles.map(\.name) == ["notes.der"])
        #expect(store.skippedFiles.first?.reason.hasPrefix("certificate: ") == true)
        let circuitMatterPAI = try X509Certificate(derEncoded: CircuitMatterVectors.pai)
        #expect(store.candidateIssuers(of: circuitMatterPAI).map(\.derEncoded) == [TestPAA.noVIDDER])
        let chipPAI = try X509Certificate(derEncoded: CHIPAttestationVectors.pai)
        #expect(store.candidateIssuers(of: chipPAI).map(\.derEncoded) == [CHIPAttestationVectors.paa])
        let chipDAC = try X509Certificate(derEncoded: CHIPAttestationVectors.dac)
        #expect(store.candidateIssuers(of: chipDAC).isEmpty)
    }

    @Test func storeWhereNothingLoadsIsAnError() {
        #expect(
            throws: PAATrustStoreError.noCertificates(skipped: [
                .init(name: "empty.pem", reason: "PEM: no CERTIFICATE block")
            ])
        ) {
            try PAATrustStore(files: [("empty.pem", Array("-----BEGIN NOTHING-----\n-----END NOTHING-----\n".utf8))])
        }
    }

    @Test func loadsADirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paa-store-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(TestPAA.noVIDDER).write(to: directory.appendingPathComponent("Chip-Test-PAA-NoVID-Cert.der"))
        try Data(pemBundle).write(to: directory.appendingPathComponent("Chip-Test-PAA-FFF1-Cert.PEM"))
        try Data("not a certificate".utf8).write(to: directory.appendingPathComponent("broken.crt"))
        try Data("ignored".utf8).write(to: directory.appendingPathComponent("README.md"))

        let store = try PAATrustStore(directory: directory.path)
        #expect(store.certificates.map(\.derEncoded) == [CHIPAttestationVectors.paa, TestPAA.noVIDDER])
        #expect(store.skippedFiles.map(\.name) == ["broken.crt"])
    }

    @Test func emptyAndMissingDirectoriesAreErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paa-store-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: PAATrustStoreError.noCertificates(skipped: [])) { try PAATrustStore(directory: directory.path) }
        #expect(
            PAATrustStoreError.noCertificates(skipped: []).description
                == "the PAA trust store holds no .der, .pem or .crt file")

        let missing = directory.appendingPathComponent("absent").path
        do {
            _ = try PAATrustStore(directory: missing)
            Issue.record("a missing directory loaded")
        } catch {
            guard case .unreadableDirectory(let path, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(path == missing)
            #expect(error.description.hasPrefix("cannot read the PAA trust store directory \(missing): "))
        }
    }
}
