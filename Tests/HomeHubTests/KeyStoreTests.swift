import Foundation
import HomeRecords
import MatterCrypto
import Testing

@testable import HomeHub

@Suite struct KeyStoreTests {
    static let fabricID: UInt64 = 0x2906_C908_D115_D362

    @Test func aKeyReadsBackFromAnOwnerOnlyFile() async throws {
        try await withTemporaryDirectory { base in
            let keys = KeyStore(directory: try StateDirectory(creating: base))
            let key = P256.PrivateKey(using: DeterministicRandom(seed: 1))
            try await keys.save(key, as: .rootCA, fabricID: Self.fabricID)
            let path = keys.path(of: .rootCA, fabricID: Self.fabricID)
            #expect(path == base + "/keys/2906C908D115D362-rcac.key")
            #expect(permissions(path) == 0o600)
            #expect(try await keys.load(.rootCA, fabricID: Self.fabricID).rawRepresentation == key.rawRepresentation)
            // Overwriting goes through a temporary file that does not stay behind.
            let replacement = P256.PrivateKey(using: DeterministicRandom(seed: 2))
            try await keys.save(replacement, as: .rootCA, fabricID: Self.fabricID)
            #expect(
                try await keys.load(.rootCA, fabricID: Self.fabricID).rawRepresentation == replacement.rawRepresentation
            )
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: base + "/keys") == ["2906C908D115D362-rcac.key"])
        }
    }

    @Test func aMissingKeyNamesItsFile() async throws {
        try await withTemporaryDirectory { base in
            let keys = KeyStore(directory: try StateDirectory(creating: base))
            let path = keys.path(of: .intermediateCA, fabricID: Self.fabricID)
            await #expect(throws: KeyStoreError.missing(path)) {
                try await keys.load(.intermediateCA, fabricID: Self.fabricID)
            }
            #expect("\(KeyStoreError.missing(path))" == "key file \(path) is missing")
        }
    }

    @Test func aKeyOthersCanReadIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let keys = KeyStore(directory: try StateDirectory(creating: base))
            try await keys.save(
                P256.PrivateKey(using: DeterministicRandom(seed: 4)), as: .rootCA, fabricID: Self.fabricID)
            let path = keys.path(of: .rootCA, fabricID: Self.fabricID)
            chmod(path, 0o644)
            await #expect(throws: KeyStoreError.tooOpen(path, mode: 0o644)) {
                try await keys.load(.rootCA, fabricID: Self.fabricID)
            }
            #expect(
                "\(KeyStoreError.tooOpen(path, mode: 0o644))"
                    == "key file \(path) has mode 0644: others may read it; expected 0600")
        }
    }

    @Test func aDamagedKeyFileIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let keys = KeyStore(directory: try StateDirectory(creating: base))
            let path = keys.path(of: .rootCA, fabricID: Self.fabricID)
            #expect(
                FileManager.default.createFile(
                    atPath: path, contents: Data(repeating: 0xAB, count: 31), attributes: [.posixPermissions: 0o600]))
            await #expect(throws: KeyStoreError.malformed(path, reason: "31 bytes, expected 32")) {
                try await keys.load(.rootCA, fabricID: Self.fabricID)
            }
            // 32 bytes, but the scalar is 0: not a private key.
            #expect(
                FileManager.default.createFile(
                    atPath: path, contents: Data(count: 32), attributes: [.posixPermissions: 0o600]))
            await #expect(throws: KeyStoreError.malformed(path, reason: "not a P-256 private key")) {
                try await keys.load(.rootCA, fabricID: Self.fabricID)
            }
        }
    }
}
