// Matter Core §4.3.1.3 Commissioning Subtypes: the filters a commissioner browses by.
public enum CommissionableSubtype: Hashable, Sendable {
    /// `_L<d>`: the full 12-bit discriminator, in decimal.
    case longDiscriminator(UInt16)
    /// `_S<d>`: the upper 4 bits of the discriminator, in decimal.
    case shortDiscriminator(UInt8)
    /// `_CM`: the device is in commissioning mode.
    case commissioningMode
    /// `_V<vid>`: vendor ID, in decimal.
    case vendor(UInt16)
    /// `_T<type>`: primary device type, in decimal.
    case deviceType(UInt32)

    public var label: String {
        switch self {
        case .longDiscriminator(let value): "_L\(value)"
        case .shortDiscriminator(let value): "_S\(value)"
        case .commissioningMode: "_CM"
        case .vendor(let value): "_V\(value)"
        case .deviceType(let value): "_T\(value)"
        }
    }

    /// `<subtype>._sub._matterc._udp.local`, the name a PTR browse for this subtype asks about.
    public var serviceName: DNSName {
        MatterServiceName.commissionable.prepending("_sub").prepending(label)
    }
}
