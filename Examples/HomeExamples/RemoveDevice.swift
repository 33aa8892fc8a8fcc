import HomeAPI

/// Remove a device: check first what removing it would do (the other devices of its node go too; a bridged device
/// cannot go alone), then decommission it. Its node is asked to leave the hub's fabric and is forgotten.
enum RemoveDevice {
    static func run(_ home: Home, device text: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(text, in: home)
        switch try await device.checkDecommissionEligibility() {
        case .eligible:
            break
        case .eligibleWithSideEffects(.multipleAffectedDevices(let ids)):
            print("\(device.name) shares its node with \(ids.count - 1) other device(s): they go too")
        case .eligibleWithSideEffects(.bridge(let ids)):
            print("\(device.name) is a bridge: its \(ids.count) bridged device(s) go too")
        case .ineligible(.bridgedDevice):
            print("\(device.name) is behind a bridge: remove the bridge, or remove it in the bridge's own app")
            return
        case .ineligible(.notAuthorized):
            print("you may not remove devices from this structure")
            return
        }
        let removed = try await device.decommissionDevice()
        print("removed \(removed.sorted().joined(separator: ", "))")
    }
}
