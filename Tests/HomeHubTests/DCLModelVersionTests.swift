import Foundation
import HomeHub
import MatterOTA
import Testing

/// The ledger's model version records in two phases: the JSON as the DCL writes it, then whether its image can be
/// fetched and checked.
@Suite struct DCLModelVersionTests {
    static func answer(_ fields: String) -> [UInt8] {
        Array(
            """
            {"modelVersion": {"vid": 4447, "pid": 8194, "softwareVersion": 1011, "softwareVersionString": "1.0.1.1", \
            "cdVersionNumber": 1, "softwareVersionValid": true, "creator": "cosmos1xyz", \(fields)}}
            """.utf8)
    }

    static let image = Array("the image's bytes".utf8)
    static var checksum: String { Data(try! OTAImageDigestType.sha256.digest(image)).base64EncodedString() }

    @Test func aLedgerAnswerIsReadAndItsImageCheckedBySizeAndChecksum() throws {
        let record = try DCLModelVersion.record(
            inAnswer: Self.answer(
                """
                "otaUrl": " https://cdn.example.com/a.ota ", "otaFileSize": "\(Self.image.count)", \
                "otaChecksum": "\(Self.checksum)", "otaChecksumType": 1, "minApplicableSoftwareVersion": 1000, \
                "maxApplicableSoftwareVersion": 1010, "releaseNotesUrl": ""
                """))
        #expect(record.vendorID == 4447 && record.productID == 8194 && record.softwareVersion == 1011)
        #expect(record.releaseNotesURL == nil && record.otaURL == "https://cdn.example.com/a.ota")
        #expect(record.applies(to: 1000) && record.applies(to: 1010))
        #expect(!record.applies(to: 999) && !record.applies(to: 1011) && !record.applies(to: 2000))
        let download = try record.download()
        #expect(download.size == UInt64(Self.image.count) && download.digestType == .sha256)
        try download.check(Self.image)
        #expect(throws: DCLError("the image is 16 bytes; the ledger's record says 17")) {
            try download.check(Array(Self.image.dropLast()))
        }
        var changed = Self.image
        changed[0] ^= 1
        #expect(
            throws: DCLError("the image's SHA-256 checksum is not the ledger's: the download is not the image")
        ) { try download.check(changed) }
    }

    @Test func aRecordWhoseImageCannotBeCheckedIsRefusedSayingWhy() throws {
        func refusal(_ fields: String) throws -> String? {
            let record = try DCLModelVersion.record(inAnswer: Self.answer(fields))
            do throws(DCLError) {
                _ = try record.download()
                return nil
            } catch {
                return error.reason
            }
        }
        let sized = #""otaFileSize": 17, "otaChecksumType": 1"#
        #expect(try refusal(#""otaUrl": "", "# + sized) == "version 1.0.1.1 has no OTA URL on the ledger")
        #expect(
            try refusal(#""otaUrl": "https://x/a.ota", "otaChecksum": "\#(Self.checksum)", "otaChecksumType": 1"#)
                == "version 1.0.1.1 has no OTA file size on the ledger")
        #expect(
            try refusal(
                #""otaUrl": "https://x/a.ota", "otaFileSize": 17, "otaChecksum": "AAAA", "otaChecksumType": 99"#)
                == "version 1.0.1.1's checksum type 99 is none of IANA's named-information hashes")
        #expect(
            try refusal(#""otaUrl": "https://x/a.ota", "otaChecksum": "AAAA", "# + sized)
                == "version 1.0.1.1's checksum is not a base64 SHA-256 digest")
        #expect(
            try refusal(#""otaUrl": "https://x/a.ota", "otaChecksum": "\#(Self.checksum)", "# + sized) == nil)
        // A version the ledger marks invalid is never one to take.
        let invalid = try DCLModelVersion.record(
            inAnswer: Array(
                #"{"modelVersion": {"vid": 1, "pid": 2, "softwareVersion": 3, "softwareVersionValid": false}}"#.utf8))
        #expect(!invalid.applies(to: 1))
    }

    @Test func listsAndFilesOfRecordsAreReadAndBadOnesRefused() throws {
        #expect(
            try DCLModelVersion.versions(
                inAnswer: Array(#"{"modelVersions": {"vid": 1, "pid": 2, "softwareVersions": [1000, 1011]}}"#.utf8))
                == [1000, 1011])
        let file =
            "[" + String(decoding: Self.answer(#""otaUrl": "a.ota""#), as: UTF8.self)
            + #", {"vid": 1, "pid": 2, "softwareVersion": 7, "otaFileSize": 12}]"#
        let records = try DCLModelVersion.records(inFile: Array(file.utf8))
        #expect(records.map(\.softwareVersion) == [1011, 7] && records[1].otaFileSize == 12)
        #expect(throws: DCLError.self) { try DCLModelVersion.records(inFile: Array("not json".utf8)) }
        let missing = #expect(throws: DCLError.self) {
            try DCLModelVersion.record(inAnswer: Array(#"{"modelVersion": {"vid": 1}}"#.utf8))
        }
        #expect(missing?.reason == "the ledger's answer is not a model version record: no pid")
    }
}
