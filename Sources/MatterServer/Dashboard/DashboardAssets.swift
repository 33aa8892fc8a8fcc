/// The dashboard's files, built into the binary from `Dashboard/Assets` (SwiftPM embeds them as bytes): no CDN, no
/// download at run time, no toolchain of another language at build time.
enum DashboardAssets {
    static let index = PackageResources.index_html
    static let script = PackageResources.app_js
    static let css = PackageResources.app_css

    /// The sign-in page; `wrong`: it says the token given was not the hub's.
    static func signIn(wrong: Bool) -> [UInt8] {
        let page = String(decoding: PackageResources.signin_html, as: UTF8.self)
        let message = wrong ? "<p class=\"failure\" role=\"alert\">That is not this hub's token.</p>" : ""
        return Array(page.replacingOccurrences(of: "<!--message-->", with: message).utf8)
    }

    /// All of it, as a page loads it: what "the whole page is small" is measured by.
    static var totalBytes: Int { index.count + script.count + css.count }
}
