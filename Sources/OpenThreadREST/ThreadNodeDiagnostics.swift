import Foundation
import MatterDiscovery

/// One Thread device's network diagnostics (Thread 1.3 §10.11, the Network Diagnostic TLVs), as its border router's
/// REST API relayed them: every member optional, a device answering only the TLVs it supports.
public struct ThreadNodeDiagnostics: Sendable, Hashable {
    /// MODE TLV: whether the radio stays on when idle, a Full Thread Device, full Network Data.
    public struct Mode: Sendable, Hashable {
        public let rxOnWhenIdle: Bool
        public let fullThreadDevice: Bool
        public let fullNetworkData: Bool
    }

    /// CONNECTIVITY TLV.
    public struct Connectivity: Sendable, Hashable {
        public let parentPriority: Int
        public let linkQuality3: Int
        public let linkQuality2: Int
        public let linkQuality1: Int
        public let leaderCost: Int
        public let idSequence: Int
        public let activeRouters: Int
        public let sedBufferSize: Int?
        public let sedDatagramCount: Int?
    }

    /// ROUTE64 TLV: a row per router this one has a route to.
    public struct Route: Sendable, Hashable {
        public let routerID: Int
        public let linkQualityIn: Int
        public let linkQualityOut: Int
        public let routeCost: Int
    }

    /// LEADER_DATA TLV.
    public struct LeaderData: Sendable, Hashable {
        public let partitionID: UInt32
        public let weighting: Int
        public let dataVersion: Int
        public let stableDataVersion: Int
        public let leaderRouterID: Int
    }

    /// MAC_COUNTERS TLV, in the order of the TLV (RFC 2863's names).
    public struct MACCounters: Sendable, Hashable {
        public let inUnknownProtocols, inErrors, outErrors, inUnicast, inBroadcast, inDiscards: UInt32
        public let outUnicast, outBroadcast, outDiscards: UInt32
    }

    /// CHILD_TABLE TLV entry: the timeout as the TLV's exponent (2^(e−4) seconds), the child's ID and mode.
    public struct Child: Sendable, Hashable {
        public let timeoutExponent: Int
        public let linkQuality: Int
        public let childID: Int
        public let mode: Mode

        /// The timeout in whole seconds (an exponent below 4 is under a second: 0).
        public var timeoutSeconds: UInt64 { timeoutExponent >= 4 ? 1 << UInt64(min(timeoutExponent - 4, 40)) : 0 }
    }

    /// MLE_COUNTERS TLV: role counts, and time in each role in milliseconds.
    public struct MLECounters: Sendable, Hashable {
        public let disabledRole, detachedRole, childRole, routerRole, leaderRole: Int
        public let attachAttempts, partitionIDChanges, betterPartitionAttachAttempts, parentChanges: Int
        public let trackedTime, disabledTime, detachedTime, childTime, routerTime, leaderTime: UInt64
    }

    public var extendedAddress: UInt64?
    public var rloc16: UInt16?
    public var mode: Mode?
    public var timeout: Int?
    public var connectivity: Connectivity?
    public var routeIDSequence: Int?
    public var routes: [Route]?
    public var leaderData: LeaderData?
    public var networkData: [UInt8]?
    public var ipv6Addresses: [IPv6Address]?
    public var macCounters: MACCounters?
    public var batteryLevel: Int?
    public var supplyVoltage: Int?
    public var childTable: [Child]?
    public var channelPages: [Int]?
    public var maxChildTimeout: Int?
    public var eui64: UInt64?
    public var threadVersion: Int?
    public var vendorName: String?
    public var vendorModel: String?
    public var vendorSoftwareVersion: String?
    public var threadStackVersion: String?
    public var mleCounters: MLECounters?

    /// The second phase of parsing: text the server sent as hex or as an address judged; what is malformed is left
    /// out by name.
    init(_ sent: NetworkDiagnosticAttributes) {
        extendedAddress = sent.extAddress.flatMap(Self.hex64)
        rloc16 = sent.rloc16.flatMap(Self.short)
        mode = sent.mode.map(Mode.init)
        timeout = sent.timeout
        connectivity = sent.connectivity.map {
            Connectivity(
                parentPriority: $0.parentPriority, linkQuality3: $0.linkQuality3, linkQuality2: $0.linkQuality2,
                linkQuality1: $0.linkQuality1, leaderCost: $0.leaderCost, idSequence: $0.idSequence,
                activeRouters: $0.activeRouters, sedBufferSize: $0.sedBufferSize, sedDatagramCount: $0.sedDatagramCount)
        }
        routeIDSequence = sent.route?.idSequence
        routes = sent.route?.routeData.map {
            Route(
                routerID: $0.routeId, linkQualityIn: $0.linkQualityIn, linkQualityOut: $0.linkQualityOut,
                routeCost: $0.routeCost)
        }
        leaderData = sent.leaderData.map {
            LeaderData(
                partitionID: $0.partitionId, weighting: $0.weighting, dataVersion: $0.dataVersion,
                stableDataVersion: $0.stableDataVersion, leaderRouterID: $0.leaderRouterId)
        }
        networkData = sent.networkData.flatMap(Self.hexBytes)
        ipv6Addresses = sent.ipv6Addresses?.compactMap { IPv6Address($0) }
        macCounters = sent.macCounters.map {
            MACCounters(
                inUnknownProtocols: $0.ifInUnknownProtos, inErrors: $0.ifInErrors, outErrors: $0.ifOutErrors,
                inUnicast: $0.ifInUcastPkts, inBroadcast: $0.ifInBroadcastPkts, inDiscards: $0.ifInDiscards,
                outUnicast: $0.ifOutUcastPkts, outBroadcast: $0.ifOutBroadcastPkts, outDiscards: $0.ifOutDiscards)
        }
        batteryLevel = sent.batteryLevel
        supplyVoltage = sent.supplyVoltage
        childTable = sent.childTable?.map {
            Child(timeoutExponent: $0.timeout, linkQuality: $0.linkQuality, childID: $0.childId, mode: Mode($0.mode))
        }
        channelPages = sent.channelPages
        maxChildTimeout = sent.maxChildTimeout
        eui64 = sent.eui.flatMap(Self.hex64)
        threadVersion = sent.threadVersion
        vendorName = sent.vendorName
        vendorModel = sent.vendorModel
        vendorSoftwareVersion = sent.vendorSwVersion
        threadStackVersion = sent.threadStackVersion
        mleCounters = sent.mleCounters.map {
            func milliseconds(_ value: Double) -> UInt64 { value.isFinite && value >= 0 ? UInt64(value.rounded()) : 0 }
            return MLECounters(
                disabledRole: $0.radioDisabledCount, detachedRole: $0.detachedRoleCount, childRole: $0.childRoleCount,
                routerRole: $0.routerRoleCount, leaderRole: $0.leaderRoleCount, attachAttempts: $0.attachAttemptsCount,
                partitionIDChanges: $0.partIdChangesCount,
                betterPartitionAttachAttempts: $0.betterPartIdAttachAttemptsCount, parentChanges: $0.newParentCount,
                trackedTime: milliseconds($0.totalTrackingTime), disabledTime: milliseconds($0.radioDisabledTime),
                detachedTime: milliseconds($0.detachedRoleTime), childTime: milliseconds($0.childRoleTime),
                routerTime: milliseconds($0.routerRoleTime), leaderTime: milliseconds($0.leaderRoleTime))
        }
    }

    /// 16 hexadecimal digits (ot-br-posix writes extended addresses and EUI-64s so).
    static func hex64(_ text: String) -> UInt64? {
        guard text.utf8.count == 16, text.allSatisfy(\.isHexDigit) else { return nil }
        return UInt64(text, radix: 16)
    }

    /// "0x5000" (or bare hex digits): a 16-bit short address.
    static func short(_ text: String) -> UInt16? {
        let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        guard (1...4).contains(digits.utf8.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt16(digits, radix: 16)
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}

extension ThreadNodeDiagnostics.Mode {
    init(_ sent: NetworkDiagnosticAttributes.Mode) {
        self.init(
            rxOnWhenIdle: sent.rxOnWhenIdle, fullThreadDevice: sent.fullThreadDevice,
            fullNetworkData: sent.fullNetworkData)
    }
}

/// What a collection from one border router gathered: its network, the devices that answered, and why it is
/// incomplete when it is (matterjs-server's partial reasons).
public struct ThreadNetworkDiagnostics: Sendable, Hashable {
    public enum Shortfall: String, Sendable, Hashable {
        /// The border router serves no REST API for diagnostics: it is no source.
        case absent = "no_source"
        /// The border router's REST API could not be reached.
        case unreachable = "rest_unreachable"
        /// It answered something the API does not define.
        case protocolError = "rest_protocol"
        /// The deadline came with devices unheard, or devices did not answer their task.
        case timeout
    }

    public var extendedPANID: UInt64?
    public var networkName: String?
    public var nodes: [ThreadNodeDiagnostics] = []
    public var shortfall: Shortfall?
    /// What went wrong, in words, for the log.
    public var problem: String?
}
