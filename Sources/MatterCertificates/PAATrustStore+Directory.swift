import Foundation

extension PAATrustStore {
    /// The file name extensions a trust store directory is read for (DER, PEM, and PEM or DER as .crt).
    static let fileExtensions: Set<String> = ["der", "pem", "crt"]

    /// Loads every `*.der`, `*.pem` and `*.crt` file of `directory` (not its subdirectories), in name order.
    public init(directory: String) throws(PAATrustStoreError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw .unreadableDirectory(directory, reason: "\(error.localizedDescription)")
        }
        var files: [(name: String, contents: [UInt8])] = []
        var unreadable: [SkippedFile] = []
        for name in names {
            guard let dot = name.lastIndex(of: "."),
                Self.fileExtensions.contains(name[name.index(after: dot)...].lowercased())
            else {
                continue
            }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            guard let size, size <= CertificateLimits.maximumTrustStoreFileSize,
                let contents = FileManager.default.contents(atPath: path)
            else {
                unreadable.append(
                    SkippedFile(
                        name: name,
                        reason: "not a readable file of at most \(CertificateLimits.maximumTrustStoreFileSize) bytes"))
                continue
            }
            files.append((name, Array(contents)))
        }
        do {
            let loaded = try PAATrustStore(files: files)
            self.init(certificates: loaded.certificates, skippedFiles: unreadable + loaded.skippedFiles)
        } catch .noCertificates(let skipped) {
            throw .noCertificates(skipped: unreadable + skipped)
        } catch {
            throw error
        }
    }
}
