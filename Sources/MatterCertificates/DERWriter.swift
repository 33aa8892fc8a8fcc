// ITU-T X.690 §8.1 and §10: encodes a node tree with shortest-form tags and definite lengths.
public enum DERWriter {
    public static func encode(_ node: DERNode) -> [UInt8] {
        var output: [UInt8] = []
        append(node, to: &output)
        return output
    }

    /// Nodes built in code or parsed are bounded in depth by the parser's limit or by their builder.
    private static func append(_ node: DERNode, to output: inout [UInt8]) {
        appendTag(node.tag, to: &output)
        switch node.content {
        case .primitive(let bytes):
            appendLength(bytes.count, to: &output)
            output.append(contentsOf: bytes)
        case .constructed(let members):
            var body: [UInt8] = []
            for member in members {
                append(member, to: &body)
            }
            appendLength(body.count, to: &output)
            output.append(contentsOf: body)
        }
    }

    private static func appendTag(_ tag: DERTag, to output: inout [UInt8]) {
        let leading = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
        guard tag.number >= 0x1F else {
            output.append(leading | UInt8(tag.number))
            return
        }
        output.append(leading | 0x1F)
        var groups: [UInt8] = []
        var number = tag.number
        while number > 0 {
            groups.insert(UInt8(number & 0x7F), at: 0)
            number >>= 7
        }
        for (index, group) in groups.enumerated() {
            output.append(index < groups.count - 1 ? group | 0x80 : group)
        }
    }

    private static func appendLength(_ length: Int, to output: inout [UInt8]) {
        guard length >= 0x80 else {
            output.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var remaining = length
        while remaining > 0 {
            octets.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
            remaining >>= 8
        }
        output.append(0x80 | UInt8(octets.count))
        output.append(contentsOf: octets)
    }
}
