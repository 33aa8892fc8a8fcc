import Foundation

/// A fresh directory under the system's temporary directory, removed when the body returns.
func withTemporaryDirectory<Result>(_ body: (String) async throws -> Result) async throws -> Result {
    var template = Array((NSTemporaryDirectory() + "/swift-home-tests-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    let path = String(cString: created)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// The permission bits of a file or directory.
func permissions(_ path: String) -> mode_t? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o777
}
