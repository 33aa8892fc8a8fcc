// ITU-T X.690 §8.1.2 Identifier octets: class, primitive or constructed, and tag number.
public struct DERTag: Hashable, Sendable, CustomStringConvertible {
    public enum TagClass: UInt8, Hashable, Sendable {
        case universal = 0, application = 1, contextSpecific = 2, `private` = 3
    }

    public var tagClass: TagClass
    public var isConstructed: Bool
    public var number: UInt32

    public init(_ tagClass: TagClass, number: UInt32, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    // ITU-T X.680 §8.6 universal tag numbers of the types certificates use.
    public static let boolean = DERTag(.universal, number: 1, constructed: false)
    public static let integer = DERTag(.universal, number: 2, constructed: false)
    public static let bitString = DERTag(.universal, number: 3, constructed: false)
    public static let octetString = DERTag(.universal, number: 4, constructed: false)
    public static let null = DERTag(.universal, number: 5, constructed: false)
    public static let objectIdentifier = DERTag(.universal, number: 6, constructed: false)
    public static let utf8String = DERTag(.universal, number: 12, constructed: false)
    public static let sequence = DERTag(.universal, number: 16, constructed: true)
    public static let set = DERTag(.universal, number: 17, constructed: true)
    public static let printableString = DERTag(.universal, number: 19, constructed: false)
    public static let ia5String = DERTag(.universal, number: 22, constructed: false)
    public static let utcTime = DERTag(.universal, number: 23, constructed: false)
    public static let generalizedTime = DERTag(.universal, number: 24, constructed: false)

    /// `[number]` in a context-specific tag: constructed for EXPLICIT tagging or IMPLICIT structures.
    public static func contextSpecific(_ number: UInt32, constructed: Bool) -> DERTag {
        DERTag(.contextSpecific, number: number, constructed: constructed)
    }

    public var description: String {
        let form = isConstructed ? "constructed" : "primitive"
        switch tagClass {
        case .universal:
            let name =
                switch number {
                case 1: "BOOLEAN"
                case 2: "INTEGER"
                case 3: "BIT STRING"
                case 4: "OCTET STRING"
                case 5: "NULL"
                case 6: "OBJECT IDENTIFIER"
                case 12: "UTF8String"
                case 16: "SEQUENCE"
                case 17: "SET"
                case 19: "PrintableString"
                case 22: "IA5String"
                case 23: "UTCTime"
                case 24: "GeneralizedTime"
                default: "universal \(number)"
                }
            let usualForm = number == 16 || number == 17  // SEQUENCE and SET are constructed, the rest primitive
            return isConstructed == usualForm ? name : "\(name) (\(form))"
        case .application: return "[APPLICATION \(number)] (\(form))"
        case .contextSpecific: return "[\(number)] (\(form))"
        case .private: return "[PRIVATE \(number)] (\(form))"
        }
    }
}
