import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Application Clusters §3.2 Color Control cluster, server, with the features a light declares: color
// temperature (CT), and for an extended color light hue/saturation (HS) and CIE xy (XY). Every move completes at
// once (no transitions); ColorMode follows the last command. Like Level Control, it acts only while the endpoint is
// on unless ExecuteIfOff says otherwise (§3.2.6.1).
public struct ColorControlServer: ClusterServer {
    private typealias Cluster = ColorControlCluster
    private typealias Attributes = ColorControlCluster.Attributes
    private typealias Commands = ColorControlCluster.Commands
    public typealias Feature = ColorControlCluster.Feature
    public typealias ColorMode = ColorControlCluster.ColorModeEnum

    public let features: Feature
    public private(set) var colorMode: ColorMode
    public private(set) var hue: UInt8 = 0
    public private(set) var saturation: UInt8 = 0
    /// §3.2.7.4: the xy of D65 white (0.3127, 0.3290) scaled by 65536.
    public private(set) var x: UInt16 = 0x5000
    public private(set) var y: UInt16 = 0x5437
    public private(set) var mireds: UInt16 = 250
    public private(set) var startUpMireds: UInt16?
    public private(set) var options: ColorControlCluster.OptionsBitmap = []
    public private(set) var isOn = false
    /// The console name of the light ("[color-temperature-light] 250 mireds").
    public let name: String

    private static let physicalMireds = DeviceConstants.colorTemperatureMireds

    public init(name: String, features: Feature) {
        self.name = name
        self.features = features
        colorMode =
            features.contains(.colorTemperature)
            ? .colorTemperatureMireds
            : features.contains(.hueAndSaturation) ? .currentHueAndCurrentSaturation : .currentXAndCurrentY
    }

    public var description: ClusterDescription {
        var attributes = [
            AttributeDescription(Attributes.remainingTime), AttributeDescription(Attributes.colorMode),
            AttributeDescription(Attributes.options),
            AttributeDescription(Attributes.numberOfPrimaries), AttributeDescription(Attributes.enhancedColorMode),
            AttributeDescription(Attributes.colorCapabilities),
        ]
        var commands = [CommandDescription(Commands.StopMoveStep.self)]
        if features.contains(.hueAndSaturation) {
            attributes += [
                AttributeDescription(Attributes.currentHue), AttributeDescription(Attributes.currentSaturation),
            ]
            commands += [
                CommandDescription(Commands.MoveToHue.self), CommandDescription(Commands.MoveToSaturation.self),
                CommandDescription(Commands.MoveToHueAndSaturation.self),
            ]
        }
        if features.contains(.xy) {
            attributes += [AttributeDescription(Attributes.currentX), AttributeDescription(Attributes.currentY)]
            commands += [CommandDescription(Commands.MoveToColor.self)]
        }
        if features.contains(.colorTemperature) {
            attributes += [
                AttributeDescription(Attributes.colorTemperatureMireds),
                AttributeDescription(Attributes.colorTempPhysicalMinMireds),
                AttributeDescription(Attributes.colorTempPhysicalMaxMireds),
                AttributeDescription(Attributes.coupleColorTempToLevelMinMireds),
                AttributeDescription(Attributes.startUpColorTemperatureMireds),
            ]
            commands += [
                CommandDescription(Commands.MoveToColorTemperature.self),
                CommandDescription(Commands.MoveColorTemperature.self),
                CommandDescription(Commands.StepColorTemperature.self),
            ]
        }
        return ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision, featureMap: features.rawValue,
            attributes: attributes.sorted { $0.id < $1.id }, acceptedCommands: commands.sorted { $0.id < $1.id })
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.remainingTime.id.rawValue: .success(.unsigned(0))
        case Attributes.colorMode.id.rawValue, Attributes.enhancedColorMode.id.rawValue: .success(colorMode.tlvValue())
        case Attributes.options.id.rawValue: .success(options.tlvValue())
        case Attributes.numberOfPrimaries.id.rawValue: .success(.null)
        case Attributes.colorCapabilities.id.rawValue: .success(.unsigned(UInt64(features.rawValue)))
        case Attributes.currentHue.id.rawValue: .success(.unsigned(UInt64(hue)))
        case Attributes.currentSaturation.id.rawValue: .success(.unsigned(UInt64(saturation)))
        case Attributes.currentX.id.rawValue: .success(.unsigned(UInt64(x)))
        case Attributes.currentY.id.rawValue: .success(.unsigned(UInt64(y)))
        case Attributes.colorTemperatureMireds.id.rawValue: .success(.unsigned(UInt64(mireds)))
        case Attributes.colorTempPhysicalMinMireds.id.rawValue, Attributes.coupleColorTempToLevelMinMireds.id.rawValue:
            .success(.unsigned(UInt64(Self.physicalMireds.lowerBound)))
        case Attributes.colorTempPhysicalMaxMireds.id.rawValue:
            .success(.unsigned(UInt64(Self.physicalMireds.upperBound)))
        case Attributes.startUpColorTemperatureMireds.id.rawValue: .success(Nullable(startUpMireds).tlvValue())
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        switch attribute {
        case Attributes.options.id.rawValue:
            guard let written = try? ColorControlCluster.OptionsBitmap(tlv: value) else { return .invalidDataType }
            guard ColorControlCluster.OptionsBitmap.executeIfOff.isSuperset(of: written) else {
                return .constraintError
            }
            options = written
        case Attributes.startUpColorTemperatureMireds.id.rawValue:
            // §3.2.7.30: null keeps the previous temperature; a value is one of the physical range.
            guard let written = try? Nullable<UInt16>(tlv: value) else { return .invalidDataType }
            if let value = written.optional, !Self.physicalMireds.contains(value) { return .constraintError }
            startUpMireds = written.optional
        default:
            return .unsupportedWrite
        }
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [attribute])
        node.effects.append(.persistSoon)
        return .success
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        let change: Change, mask: ColorControlCluster.OptionsBitmap, override: ColorControlCluster.OptionsBitmap
        switch command {
        case Commands.MoveToHue.id.rawValue:
            guard let move = Commands.MoveToHue.decode(fields) else { return .status(.invalidCommand) }
            guard DeviceConstants.hueSaturationRange.contains(move.hue),
                move.direction.rawValue <= Cluster.DirectionEnum.down.rawValue
            else {
                return .status(.constraintError)
            }
            (change, mask, override) = (.hueSaturation(move.hue, saturation), move.optionsMask, move.optionsOverride)
        case Commands.MoveToSaturation.id.rawValue:
            guard let move = Commands.MoveToSaturation.decode(fields) else { return .status(.invalidCommand) }
            guard DeviceConstants.hueSaturationRange.contains(move.saturation) else { return .status(.constraintError) }
            (change, mask, override) = (.hueSaturation(hue, move.saturation), move.optionsMask, move.optionsOverride)
        case Commands.MoveToHueAndSaturation.id.rawValue:
            guard let move = Commands.MoveToHueAndSaturation.decode(fields) else { return .status(.invalidCommand) }
            guard DeviceConstants.hueSaturationRange.contains(move.hue),
                DeviceConstants.hueSaturationRange.contains(move.saturation)
            else {
                return .status(.constraintError)
            }
            (change, mask, override) = (
                .hueSaturation(move.hue, move.saturation), move.optionsMask, move.optionsOverride
            )
        case Commands.MoveToColor.id.rawValue:
            guard let move = Commands.MoveToColor.decode(fields) else { return .status(.invalidCommand) }
            guard DeviceConstants.chromaticityRange.contains(move.colorX),
                DeviceConstants.chromaticityRange.contains(move.colorY)
            else {
                return .status(.constraintError)
            }
            (change, mask, override) = (.xy(move.colorX, move.colorY), move.optionsMask, move.optionsOverride)
        case Commands.MoveToColorTemperature.id.rawValue:
            guard let move = Commands.MoveToColorTemperature.decode(fields) else { return .status(.invalidCommand) }
            guard DeviceConstants.chromaticityRange.contains(move.colorTemperatureMireds) else {
                return .status(.constraintError)
            }
            // §3.2.8.10: a temperature outside the physical range goes to its nearest end.
            (change, mask, override) = (
                .mireds(Self.clamped(Int(move.colorTemperatureMireds))), move.optionsMask, move.optionsOverride
            )
        case Commands.MoveColorTemperature.id.rawValue:
            guard let move = Commands.MoveColorTemperature.decode(fields) else { return .status(.invalidCommand) }
            guard [.stop, .up, .down].contains(move.moveMode) else { return .status(.constraintError) }
            if move.moveMode == .stop { return .success }
            // §3.2.8.20: a zero rate is invalid.
            guard move.rate > 0 else { return .status(.invalidCommand) }
            let range = Self.bounds(move.colorTemperatureMinimumMireds, move.colorTemperatureMaximumMireds)
            (change, mask, override) = (
                .mireds(move.moveMode == .up ? range.upperBound : range.lowerBound), move.optionsMask,
                move.optionsOverride
            )
        case Commands.StepColorTemperature.id.rawValue:
            guard let step = Commands.StepColorTemperature.decode(fields) else { return .status(.invalidCommand) }
            guard step.stepMode == .up || step.stepMode == .down else { return .status(.constraintError) }
            let range = Self.bounds(step.colorTemperatureMinimumMireds, step.colorTemperatureMaximumMireds)
            let target = Int(mireds) + (step.stepMode == .up ? 1 : -1) * Int(step.stepSize)
            (change, mask, override) = (
                .mireds(UInt16(min(max(target, Int(range.lowerBound)), Int(range.upperBound)))), step.optionsMask,
                step.optionsOverride
            )
        case Commands.StopMoveStep.id.rawValue:
            guard Commands.StopMoveStep.decode(fields) != nil else { return .status(.invalidCommand) }
            return .success
        default:
            return .status(.unsupportedCommand)
        }
        let effective = mask.intersection(override).union(options.subtracting(mask))
        guard isOn || effective.contains(.executeIfOff) else { return .success }
        apply(change, in: &node, endpoint: request.endpoint)
        return .success
    }

    private enum Change {
        case hueSaturation(UInt8, UInt8)
        case xy(UInt16, UInt16)
        case mireds(UInt16)
    }

    private mutating func apply(_ change: Change, in node: inout NodeState, endpoint: UInt16) {
        var changed: [UInt32] = []
        let mode: ColorMode
        switch change {
        case .hueSaturation(let newHue, let newSaturation):
            node.effects.append(.log("[\(name)] hue \(newHue) saturation \(newSaturation)"))
            if newHue != hue { changed.append(Attributes.currentHue.id.rawValue) }
            if newSaturation != saturation { changed.append(Attributes.currentSaturation.id.rawValue) }
            (hue, saturation, mode) = (newHue, newSaturation, .currentHueAndCurrentSaturation)
        case .xy(let newX, let newY):
            node.effects.append(.log("[\(name)] xy \(newX) \(newY)"))
            if newX != x { changed.append(Attributes.currentX.id.rawValue) }
            if newY != y { changed.append(Attributes.currentY.id.rawValue) }
            (x, y, mode) = (newX, newY, .currentXAndCurrentY)
        case .mireds(let newMireds):
            node.effects.append(.log("[\(name)] \(newMireds) mireds"))
            if newMireds != mireds { changed.append(Attributes.colorTemperatureMireds.id.rawValue) }
            (mireds, mode) = (newMireds, .colorTemperatureMireds)
        }
        if mode != colorMode {
            colorMode = mode
            changed += [Attributes.colorMode.id.rawValue, Attributes.enhancedColorMode.id.rawValue]
        }
        guard !changed.isEmpty else { return }
        node.markChanged(endpoint: endpoint, cluster: id, attributes: changed)
        node.effects.append(.persistSoon)
    }

    public mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16) {
        guard case .onOff(let on) = signal, on != isOn else { return }
        isOn = on
        node.effects.append(.persistSoon)
    }

    private static func clamped(_ value: Int) -> UInt16 {
        UInt16(min(max(value, Int(physicalMireds.lowerBound)), Int(physicalMireds.upperBound)))
    }

    /// §3.2.8.20: a command's own limits, where non-zero and inside the physical range, narrow the physical range.
    private static func bounds(_ minimum: UInt16, _ maximum: UInt16) -> ClosedRange<UInt16> {
        let lower = minimum == 0 ? physicalMireds.lowerBound : clamped(Int(minimum))
        let upper = maximum == 0 ? physicalMireds.upperBound : clamped(Int(maximum))
        return lower <= upper ? lower...upper : lower...lower
    }

    public var persistentState: TLVValue? {
        .structure([
            TLVElement(tag: .context(0), colorMode.tlvValue()), TLVElement(tag: .context(1), .unsigned(UInt64(hue))),
            TLVElement(tag: .context(2), .unsigned(UInt64(saturation))),
            TLVElement(tag: .context(3), .unsigned(UInt64(x))),
            TLVElement(tag: .context(4), .unsigned(UInt64(y))), TLVElement(tag: .context(5), .unsigned(UInt64(mireds))),
            TLVElement(tag: .context(6), Nullable(startUpMireds).tlvValue()),
            TLVElement(tag: .context(7), options.tlvValue()),
            TLVElement(tag: .context(8), .bool(isOn)),
        ])
    }

    /// Restores the stored values (each only when valid for this light), then applies StartUpColorTemperatureMireds.
    public mutating func restore(_ state: TLVElement) {
        if let mode = state[context: 0].flatMap({ try? ColorMode(tlv: $0) }), supports(mode) { colorMode = mode }
        if let value = state[context: 1].flatMap({ try? UInt8(tlv: $0) }),
            DeviceConstants.hueSaturationRange.contains(value)
        {
            hue = value
        }
        if let value = state[context: 2].flatMap({ try? UInt8(tlv: $0) }),
            DeviceConstants.hueSaturationRange.contains(value)
        {
            saturation = value
        }
        if let value = state[context: 3].flatMap({ try? UInt16(tlv: $0) }),
            DeviceConstants.chromaticityRange.contains(value)
        {
            x = value
        }
        if let value = state[context: 4].flatMap({ try? UInt16(tlv: $0) }),
            DeviceConstants.chromaticityRange.contains(value)
        {
            y = value
        }
        if let value = state[context: 5].flatMap({ try? UInt16(tlv: $0) }) { mireds = Self.clamped(Int(value)) }
        if let value = state[context: 6].flatMap({ try? Nullable<UInt16>(tlv: $0) }) {
            startUpMireds = value.optional.map { Self.clamped(Int($0)) }
        }
        if let value = state[context: 7].flatMap({ try? ColorControlCluster.OptionsBitmap(tlv: $0) }) {
            options = value.intersection(.executeIfOff)
        }
        if case .bool(let on)? = state[context: 8]?.value { isOn = on }
        if let startUpMireds {
            mireds = startUpMireds
            colorMode = .colorTemperatureMireds
        }
    }

    private func supports(_ mode: ColorMode) -> Bool {
        switch mode {
        case .currentHueAndCurrentSaturation: features.contains(.hueAndSaturation)
        case .currentXAndCurrentY: features.contains(.xy)
        case .colorTemperatureMireds: features.contains(.colorTemperature)
        default: false
        }
    }
}
