import Foundation
import Glibc
import MatterNode
import MatterPlatform

extension DeviceCommandLine.Farm {
    /// Runs the farm as `matter-device --count` does, until SIGINT or SIGTERM: one setup line per device (JSON), then
    /// each device's lines prefixed with its index, all through `emit`.
    public func run(emit: @escaping @Sendable (String) -> Void) async throws(DeviceError) {
        let stop = StopSignal()
        try Self.allowDescriptors(2 * count + DeviceConstants.processDescriptorReserve)
        let farm = try DeviceFarm.open(
            directory: stateDirectory, ports: ports, kinds: kinds, settings: settings, factoryReset: factoryReset
        ) { index, line in emit("#\(index) \(line)") }
        for setup in farm.setups { emit(setup.jsonLine) }
        try await farm.start(groupInterfaces: interfaces)
        emit("[farm] \(count) devices running")
        await stop.wait()
        await farm.shutdown()
        emit("[farm] stopped")
    }

    /// Raises the soft descriptor limit to `needed` when the hard one allows it: a farm that cannot open every
    /// device's sockets stops before the first, saying so, not halfway through.
    private static func allowDescriptors(_ needed: Int) throws(DeviceError) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        getrlimit(resource, &limit)
        if limit.rlim_cur < rlim_t(needed) {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(needed))
            setrlimit(resource, &limit)
        }
        guard limit.rlim_cur >= rlim_t(needed) else {
            throw .network(
                "\(needed) file descriptors are needed (two sockets a device); this process may open \(limit.rlim_max) (ulimit -Hn)"
            )
        }
    }
}
