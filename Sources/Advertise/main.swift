import Dispatch
import Glibc
import MatterDiscovery
import MatterPlatform

// swift-home-advertise: publish one Matter node by mDNS until told to stop, then say goodbye.

/// Writes straight to a descriptor, unbuffered, so a script reading a pipe sees each line at once.
func emit(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let options: AdvertiseOptions
do {
    options = try AdvertiseOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    emit("error: \(error.description)\n\(AdvertiseOptions.usage)\n", to: STDERR_FILENO)
    exit(2)
}

var random = SystemRandomNumberGenerator()
let commissionable = CommissionableAdvertisement(
    instanceName: CommissionableAdvertisement.randomInstanceName(using: &random), port: options.port,
    longDiscriminator: options.discriminator ?? 0, commissioningMode: options.commissioningMode,
    vendorID: options.vendorID,
    productID: options.productID, deviceType: options.deviceType, deviceName: options.deviceName
)
var advertisements = [MatterAdvertisement.commissionable(commissionable)]
if let peer = options.operational {
    advertisements.append(.operational(OperationalAdvertisement(peerID: peer, port: options.port)))
}

// Caught from here on, so a stop that comes as soon as the advertisement is printed still withdraws it.
let stop = StopSignal()
let stopSignals = stop.signals

do throws(MulticastDNSError) {
    let responder = try MulticastDNSResponder(
        interfaces: options.interfaces, hostName: ResponderHost.randomName(using: &random))
    for advertisement in advertisements { try await responder.advertise(advertisement) }
    let host = await responder.host
    let addresses = (host.ipv4Addresses.map(\.description) + host.ipv6Addresses.map(\.description)).map { "\"\($0)\"" }
    emit(
        """
        {"instance":"\(commissionable.instanceName)","host":"\(host.name)","port":\(options.port),\
        "discriminator":\(commissionable.longDiscriminator),"operational":\(options.operational.map { "\"\($0)\"" } ?? "null"),\
        "addresses":[\(addresses.joined(separator: ","))]}

        """)
    await withTaskGroup(of: Void.self) { group in
        group.addTask { for await _ in stopSignals { return } }
        if let duration = options.duration { group.addTask { try? await Task.sleep(for: duration) } }
        await group.next()
        group.cancelAll()
    }
    await responder.shutdown()
    emit("withdrawn\n")
} catch {
    emit("error: \(error.description)\n", to: STDERR_FILENO)
    exit(1)
}
withExtendedLifetime(stop) {}
