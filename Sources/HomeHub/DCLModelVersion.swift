import Foundation
import MatterOTA

/// One model version record of the CSA's Distributed Compliance Ledger, as its REST API answers
/// `GET /dcl/model/versions/{vid}/{pid}/{softwareVersion}` (`{"modelVersion": {...}}`) and as a file of records for a
/// home with no internet holds them: the version, whether it is valid, where its OTA image is, its size and checksum
/// (IANA's named-information hash algorithms, the OTA header's own), and the versions it may replace. Read in two
/// phases: the JSON as the ledger writes it (`init(from:)`), then what the hub checks before it fetches an image
/// (`download`).
public struct DCLModelVersion: Sendable, Hashable, Decodable {
    public let vendorID: UInt16
    public let productID: UInt16
    public let softwareVersion: UInt32
    public let softwareVersionString: String
    public let isValid: Bool
    public let otaURL: String
    public let otaFileSize: UInt64?
    public let otaChecksum: String
    public let otaChecksumType: Int?
    public let minApplicableSoftwareVersion: UInt32
    public let maxApplicableSoftwareVersion: UInt32
    public let releaseNotesURL: String?

    enum CodingKeys: String, CodingKey {
        case vendorID = "vid"
        case productID = "pid"
        case softwareVersion, softwareVersionString
        case isValid = "softwareVersionValid"
        case otaURL = "otaUrl"
        case otaFileSize, otaChecksum, otaChecksumType, minApplicableSoftwareVersion, maxApplicableSoftwareVersion
        case releaseNotesURL = "releaseNotesUrl"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        vendorID = try fields.decode(UInt16.self, forKey: .vendorID)
        productID = try fields.decode(UInt16.self, forKey: .productID)
        softwareVersion = try fields.decode(UInt32.self, forKey: .softwareVersion)
        softwareVersionString = try fields.decodeIfPresent(String.self, forKey: .softwareVersionString) ?? ""
        isValid = try fields.decodeIfPresent(Bool.self, forKey: .isValid) ?? false
        otaURL = (try fields.decodeIfPresent(String.self, forKey: .otaURL) ?? "").trimmingCharacters(in: .whitespaces)
        // The ledger writes the size as a string of digits ("615708"); a file of records may hold a number.
        if let text = try? fields.decodeIfPresent(String.self, forKey: .otaFileSize) {
            otaFileSize = text.isEmpty ? nil : UInt64(text)
        } else {
            otaFileSize = try fields.decodeIfPresent(UInt64.self, forKey: .otaFileSize)
        }
        otaChecksum = (try fields.decodeIfPresent(String.self, forKey: .otaChecksum) ?? "")
            .trimmingCharacters(in: .whitespaces)
        otaChecksumType = try fields.decodeIfPresent(Int.self, forKey: .otaChecksumType)
        minApplicableSoftwareVersion =
            try fields.decodeIfPresent(UInt32.self, forKey: .minApplicableSoftwareVersion) ?? 0
        maxApplicableSoftwareVersion =
            try fields.decodeIfPresent(UInt32.self, forKey: .maxApplicableSoftwareVersion) ?? UInt32.max
        let notes = try fields.decodeIfPresent(String.self, forKey: .releaseNotesURL) ?? ""
        releaseNotesURL = notes.isEmpty ? nil : notes
    }

    /// Whether a device running `version` may take this one: valid, later, and within its applicable range.
    public func applies(to version: UInt32) -> Bool {
        isValid && softwareVersion > version
            && (minApplicableSoftwareVersion...max(minApplicableSoftwareVersion, maxApplicableSoftwareVersion))
                .contains(version)
    }

    /// What the hub fetches and how it checks it.
    public struct Download: Sendable, Hashable {
        public let url: String
        public let size: UInt64
        public let digestType: OTAImageDigestType
        public let digest: [UInt8]

        /// Whether `bytes` are the record's image: its size and its checksum.
        public func check(_ bytes: [UInt8]) throws(DCLError) {
            guard UInt64(bytes.count) == size else {
                throw DCLError("the image is \(bytes.count) bytes; the ledger's record says \(size)")
            }
            let computed: [UInt8]
            do throws(OTAImageError) {
                computed = try digestType.digest(bytes)
            } catch {
                throw DCLError("the image's \(digestType) checksum cannot be checked: \(error)")
            }
            guard computed == digest else {
                throw DCLError("the image's \(digestType) checksum is not the ledger's: the download is not the image")
            }
        }
    }

    /// Phase two: an image the hub can fetch and check, or why not (no URL, no size, a checksum missing, of an
    /// unknown type or of the wrong length). An image is never kept unchecked.
    public func download() throws(DCLError) -> Download {
        guard !otaURL.isEmpty else { throw DCLError("version \(softwareVersionString) has no OTA URL on the ledger") }
        guard let size = otaFileSize, size > 0 else {
            throw DCLError("version \(softwareVersionString) has no OTA file size on the ledger")
        }
        guard let type = otaChecksumType.flatMap({ UInt8(exactly: $0) }).flatMap(OTAImageDigestType.init(rawValue:))
        else {
            throw DCLError(
                "version \(softwareVersionString)'s checksum type \(otaChecksumType.map(String.init) ?? "(none)") is none of IANA's named-information hashes"
            )
        }
        guard let digest = Data(base64Encoded: otaChecksum).map(Array.init), digest.count == type.length else {
            throw DCLError("version \(softwareVersionString)'s checksum is not a base64 \(type) digest")
        }
        return Download(url: otaURL, size: size, digestType: type, digest: digest)
    }

    /// The records of a file for a home with no internet: a JSON array of records, each as the ledger answers one
    /// (`{"modelVersion": {...}}`) or the record itself.
    public static func records(inFile json: [UInt8]) throws(DCLError) -> [DCLModelVersion] {
        struct Wrapped: Decodable { let modelVersion: DCLModelVersion }
        struct Either: Decodable {
            let record: DCLModelVersion
            init(from decoder: any Decoder) throws {
                if let wrapped = try? Wrapped(from: decoder) {
                    record = wrapped.modelVersion
                } else {
                    record = try DCLModelVersion(from: decoder)
                }
            }
        }
        do {
            return try JSONDecoder().decode([Either].self, from: Data(json)).map(\.record)
        } catch {
            throw DCLError("not a JSON array of DCL model version records: \(Self.describe(error))")
        }
    }

    /// One answer of the ledger (`{"modelVersion": {...}}`).
    public static func record(inAnswer json: [UInt8]) throws(DCLError) -> DCLModelVersion {
        struct Answer: Decodable { let modelVersion: DCLModelVersion }
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(json)).modelVersion
        } catch {
            throw DCLError("the ledger's answer is not a model version record: \(Self.describe(error))")
        }
    }

    /// The versions the ledger lists for a product (`GET /dcl/model/versions/{vid}/{pid}`).
    public static func versions(inAnswer json: [UInt8]) throws(DCLError) -> [UInt32] {
        struct Answer: Decodable {
            struct Versions: Decodable { let softwareVersions: [UInt32] }
            let modelVersions: Versions
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(json)).modelVersions.softwareVersions
        } catch {
            throw DCLError("the ledger's answer is not a list of versions: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what a record holds"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "not JSON" : "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is malformed"
        default: "\(error)"
        }
    }
}

/// A DCL record or image refused, saying why.
public struct DCLError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
