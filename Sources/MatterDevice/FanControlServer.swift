import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §4.4 Fan Control cluster, server, without optional features: FanMode in the
// Off/Low/Medium/High sequence and PercentSetting, each written by a controller and each setting the other;
// PercentCurrent follows at once (the simulated fan spins up instantly).
public struct FanControlServer: ClusterServer {
    private typealias Cluster = FanControlCluster
    private typealias Attributes = FanControlCluster.Attributes
    public typealias FanMode = FanControlCluster.FanModeEnum

    public private(set) var fanMode: FanMode = .off
    public private(set) var percentSetting: UInt8? = 0
    public private(set) var percentCurrent: UInt8 = 0
    /// The console name ("[fan] medium 66 %").
    public let name: String

    public init(name: String) {
        self.name = name
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Attributes.fanMode), AttributeDescription(Attributes.fanModeSequence),
                AttributeDescription(Attributes.percentSetting), AttributeDescription(Attributes.percentCurrent),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.fanMode.id.rawValue: .success(fanMode.tlvValue())
        case Attributes.fanModeSequence.id.rawValue: .success(Cluster.FanModeSequenceEnum.offLowMedHigh.tlvValue())
        case Attributes.percentSetting.id.rawValue: .success(Nullable(percentSetting).tlvValue())
        case Attributes.percentCurrent.id.rawValue: .success(.unsigned(UInt64(percentCurrent)))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        switch attribute {
        case Attributes.fanMode.id.rawValue:
            guard let written = try? FanMode(tlv: value) else { return .invalidDataType }
            // §4.4.6.1.1: On means High; Auto and Smart are outside the Off/Low/Medium/High sequence.
            let mode = written == .on ? .high : written
            guard let percent = Self.percent(of: mode) else { return .constraintError }
            // §4.4.6.3: a mode other than Off leaves the exact percentage to the fan, so PercentSetting becomes null.
            set(mode: mode, setting: mode == .off ? 0 : nil, current: percent, in: &node, endpoint: request.endpoint)
        case Attributes.percentSetting.id.rawValue:
            guard let written = try? Nullable<UInt8>(tlv: value) else { return .invalidDataType }
            // §4.4.6.3: null is only ever the fan's own answer, never a controller's request.
            guard let percent = written.optional else { return .invalidInState }
            guard percent <= 100 else { return .constraintError }
            set(
                mode: Self.mode(for: percent), setting: percent, current: percent, in: &node, endpoint: request.endpoint
            )
        default:
            return .unsupportedWrite
        }
        return .success
    }

    private mutating func set(
        mode: FanMode, setting: UInt8?, current: UInt8, in node: inout NodeState, endpoint: UInt16
    ) {
        var changed: [UInt32] = []
        if mode != fanMode { changed.append(Attributes.fanMode.id.rawValue) }
        if setting != percentSetting { changed.append(Attributes.percentSetting.id.rawValue) }
        if current != percentCurrent { changed.append(Attributes.percentCurrent.id.rawValue) }
        (fanMode, percentSetting, percentCurrent) = (mode, setting, current)
        node.effects.append(.log("[\(name)] \(FanMode.names[mode.rawValue, default: "?"].lowercased()) \(current) %"))
        guard !changed.isEmpty else { return }
        node.markChanged(endpoint: endpoint, cluster: id, attributes: changed)
        node.effects.append(.persistSoon)
    }

    /// The speed a mode of the Off/Low/Medium/High sequence runs at; nil for a mode outside it.
    private static func percent(of mode: FanMode) -> UInt8? {
        switch mode {
        case .off: 0
        case .low: 33
        case .medium: 66
        case .high: 100
        default: nil
        }
    }

    /// §4.4.6.3.1: the mode whose band holds a percentage.
    private static func mode(for percent: UInt8) -> FanMode {
        switch percent {
        case 0: .off
        case 1...33: .low
        case 34...66: .medium
        default: .high
        }
    }

    public var persistentState: TLVValue? {
        .structure([
            TLVElement(tag: .context(0), fanMode.tlvValue()),
            TLVElement(tag: .context(1), Nullable(percentSetting).tlvValue()),
            TLVElement(tag: .context(2), .unsigned(UInt64(percentCurrent))),
        ])
    }

    public mutating func restore(_ state: TLVElement) {
        guard let mode = state[context: 0].flatMap({ try? FanMode(tlv: $0) }), let percent = Self.percent(of: mode),
            let setting = state[context: 1].flatMap({ try? Nullable<UInt8>(tlv: $0) }),
            let current = state[context: 2].flatMap({ try? UInt8(tlv: $0) }), current <= 100
        else { return }
        fanMode = mode
        percentSetting = setting.optional.map { min($0, 100) }
        percentCurrent = setting.optional == nil ? percent : current
    }
}
