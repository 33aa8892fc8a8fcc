import MatterDiscovery

/// The command line of `swift-home-advertise`: which interfaces, and what to publish on them.
struct AdvertiseOptions {
    static let usage = """
        usage: swift-home-advertise --interface NAME [--interface NAME…] --discriminator N [--port N]
               [--vendor-id N] [--product-id N] [--device-type N] [--device-name TEXT] [--commissioning-mode 0|1|2]
               [--operational CFID-NODEID] [--duration SECONDS]
        Publishes a commissionable Matter node (_matterc._udp) and, with --operational, an operational
        instance (_matter._tcp) by mDNS on the named interfaces only, until SIGINT/SIGTERM or the duration
        ends; then says goodbye. Prints one JSON line describing what it publishes.
        """

    var interfaces: [String] = []
    var discriminator: UInt16?
    var port: UInt16 = 5540
    var vendorID: UInt16?
    var productID: UInt16?
    var deviceType: UInt32?
    var deviceName: String?
    var commissioningMode = CommissioningMode.basic
    var operational: OperationalPeerID?
    var duration: Duration?

    /// A usage error names the option and what it needed.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let option = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            func number<Value: FixedWidthInteger>(_: Value.Type) throws(UsageError) -> Value {
                let parsed = value.hasPrefix("0x") ? Value(value.dropFirst(2), radix: 16) : Value(value)
                guard let parsed else {
                    throw UsageError(description: "\(option) needs a number that fits \(Value.self), got '\(value)'")
                }
                return parsed
            }
            switch option {
            case "--interface": interfaces += value.split(separator: ",").map(String.init)
            case "--discriminator": discriminator = try number(UInt16.self)
            case "--port": port = try number(UInt16.self)
            case "--vendor-id": vendorID = try number(UInt16.self)
            case "--product-id": productID = try number(UInt16.self)
            case "--device-type": deviceType = try number(UInt32.self)
            case "--device-name": deviceName = value
            case "--commissioning-mode":
                guard let mode = CommissioningMode(rawValue: try number(UInt8.self)) else {
                    throw UsageError(description: "--commissioning-mode is 0, 1 or 2")
                }
                commissioningMode = mode
            case "--operational":
                guard let peer = OperationalPeerID(instanceName: value) else {
                    throw UsageError(description: "--operational needs CFID-NODEID, 16 hex digits each")
                }
                operational = peer
            case "--duration": duration = .seconds(try number(UInt32.self))
            default: throw UsageError(description: "unknown option \(option)")
            }
        }
        guard !interfaces.isEmpty else {
            throw UsageError(
                description: "missing --interface (name each interface to advertise on; there is no default)")
        }
        guard discriminator != nil else { throw UsageError(description: "missing --discriminator") }
    }
}
