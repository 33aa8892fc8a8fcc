import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads the device-type definitions (children of `<configurator>`); device types nested in an
/// `<endpointComposition>` are references to others, not definitions, and are skipped.
enum DeviceTypeReader {
    static func read(_ data: Data) throws(GeneratorError) -> [DeviceTypeEntry] {
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        let parsed = parser.parse()
        if let error = delegate.error { throw error }
        guard parsed else {
            throw .deviceTypes(
                line: parser.lineNumber,
                message: "not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "unknown error"))")
        }
        // Some XMLParser builds accept a document cut short; the closing root element shows it is whole.
        guard delegate.isComplete else {
            throw .deviceTypes(line: parser.lineNumber, message: "the XML ends before </configurator>")
        }
        return delegate.entries
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var entries: [DeviceTypeEntry] = []
        var error: GeneratorError?
        private(set) var isComplete = false
        private var path: [String] = []
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            path.append(name)
            text = ""
            if path == ["configurator", "deviceType"] {
                entries.append(DeviceTypeEntry(line: parser.lineNumber))
            } else if path == ["configurator", "deviceType", "clusters", "include"] {
                guard let cluster = attributes["cluster"] else {
                    fail(parser, "an <include> has no cluster attribute")
                    return
                }
                let include = DeviceTypeEntry.ClusterInclude(
                    cluster: cluster, client: flag(attributes["client"]), server: flag(attributes["server"]),
                    clientLocked: flag(attributes["clientLocked"]), serverLocked: flag(attributes["serverLocked"]),
                    line: parser.lineNumber)
                entries[entries.count - 1].clusters.append(include)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { path.removeLast() }
            if path == ["configurator"] { isComplete = true }
            guard path.count == 3, path[0] == "configurator", path[1] == "deviceType", !entries.isEmpty else { return }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let index = entries.count - 1
            switch name {
            case "typeName": entries[index].typeName = value
            case "deviceId": entries[index].deviceID = number(value, parser)
            case "deviceRevision": entries[index].revision = number(value, parser)
            case "class": entries[index].deviceClass = value
            case "scope": entries[index].scope = value
            case "superset": entries[index].superset = value
            default: break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            fail(parser, "not well-formed XML (\(parseError))")
        }

        private func flag(_ value: String?) -> Bool {
            value == "true"
        }

        /// Decimal or `0x` hex in either case (`0x000e`, `0x010C`).
        private func number(_ text: String, _ parser: XMLParser) -> UInt64? {
            let lowered = text.lowercased()
            guard let value = lowered.hasPrefix("0x") ? UInt64(lowered.dropFirst(2), radix: 16) : UInt64(lowered) else {
                fail(parser, "'\(text)' is not a number")
                return nil
            }
            return value
        }

        private func fail(_ parser: XMLParser, _ message: String) {
            error = error ?? .deviceTypes(line: parser.lineNumber, message: message)
            parser.abortParsing()
        }
    }
}
