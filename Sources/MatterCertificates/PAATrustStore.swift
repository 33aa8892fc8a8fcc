// Matter Core §6.2.2.5 and §6.2.3: the Product Attestation Authorities a commissioner trusts, found by the
// subject key identifier a PAI names as its authority key identifier, or else by the PAI's issuer name.
public struct PAATrustStore: Sendable {
    /// A trust store file that was not loaded, and why.
    public struct SkippedFile: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public let reason: String

        public init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }

        public var description: String { "\(name): \(reason)" }
    }

    public let certificates: [X509Certificate]
    /// Files given to `init(files:)` or found in a directory that held no usable certificate.
    public let skippedFiles: [SkippedFile]
    private let bySubjectKeyIdentifier: [[UInt8]: [X509Certificate]]
    private let bySubject: [DistinguishedName: [X509Certificate]]

    public init(certificates: [X509Certificate]) {
        self.init(certificates: certificates, skippedFiles: [])
    }

    /// Loads DER files and PEM files with one or more CERTIFICATE blocks; files that hold none are skipped.
    public init(files: [(name: String, contents: [UInt8])]) throws(PAATrustStoreError) {
        var certificates: [X509Certificate] = []
        var skipped: [SkippedFile] = []
        for file in files {
            do {
                certificates += try Self.certificates(in: file.contents)
            } catch {
                skipped.append(SkippedFile(name: file.name, reason: error.description))
            }
        }
        guard !certificates.isEmpty else {
            throw .noCertificates(skipped: skipped)
        }
        self.init(certificates: certificates, skippedFiles: skipped)
    }

    init(certificates: [X509Certificate], skippedFiles: [SkippedFile]) {
        self.certificates = certificates
        self.skippedFiles = skippedFiles
        var bySubjectKeyIdentifier: [[UInt8]: [X509Certificate]] = [:]
        var bySubject: [DistinguishedName: [X509Certificate]] = [:]
        for certificate in certificates {
            if let identifier = try? certificate.subjectKeyIdentifier {
                bySubjectKeyIdentifier[identifier, default: []].append(certificate)
            }
            bySubject[certificate.subject, default: []].append(certificate)
        }
        self.bySubjectKeyIdentifier = bySubjectKeyIdentifier
        self.bySubject = bySubject
    }

    /// The PAAs that may have issued `certificate`: by authority key identifier when it has one, else by issuer name.
    public func candidateIssuers(of certificate: X509Certificate) -> [X509Certificate] {
        if let identifier = try? certificate.authorityKeyIdentifier {
            return bySubjectKeyIdentifier[identifier] ?? []
        }
        return bySubject[certificate.issuer] ?? []
    }

    /// The certificates of one file: PEM when it starts with "-----BEGIN", DER otherwise.
    static func certificates(in contents: [UInt8]) throws(CertificateError) -> [X509Certificate] {
        guard contents.count <= CertificateLimits.maximumTrustStoreFileSize else {
            throw .invalidField(
                "file", reason: "\(contents.count) bytes, at most \(CertificateLimits.maximumTrustStoreFileSize) read")
        }
        let text = contents.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard text.starts(with: Array("-----BEGIN".utf8)) else {
            return [try X509Certificate(derEncoded: contents)]
        }
        guard let decoded = String(validating: contents, as: UTF8.self) else {
            throw .invalidField("PEM", reason: "not UTF-8 text")
        }
        let blocks = try PEM.blocks(labeled: "CERTIFICATE", in: decoded)
        guard !blocks.isEmpty else {
            throw .invalidField("PEM", reason: "no CERTIFICATE block")
        }
        var certificates: [X509Certificate] = []
        for block in blocks {
            certificates.append(try X509Certificate(derEncoded: block))
        }
        return certificates
    }
}

/// Why a PAA trust store could not be built.
public enum PAATrustStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadableDirectory(String, reason: String)
    /// Nothing loaded: every file was skipped (listed) or there were none.
    case noCertificates(skipped: [PAATrustStore.SkippedFile])

    public var description: String {
        switch self {
        case .unreadableDirectory(let path, let reason):
            "cannot read the PAA trust store directory \(path): \(reason)"
        case .noCertificates(let skipped) where skipped.isEmpty:
            "the PAA trust store holds no .der, .pem or .crt file"
        case .noCertificates(let skipped):
            "no PAA certificate could be loaded; skipped: " + skipped.map(\.description).joined(separator: "; ")
        }
    }
}
