import HubWire

// Values the hub engine defines and the Home API hands out: an app names them through `import HomeAPI` alone.

/// The one error type of the Home API: a code a program can switch on and a message a person can read.
public typealias HomeError = HubWire.HomeError
/// The hub serving the home, as `Home.hubStatus()` tells it.
public typealias HubStatus = HubWire.HubStatus
/// A window in which another ecosystem can add a device (`HomeDevice.openCommissioningWindow`).
public typealias CommissioningWindow = HubWire.CommissioningWindow
/// Whether a device's node can be added by another ecosystem now.
public typealias CommissioningWindowStatus = HubWire.CommissioningWindowStatus
/// One ecosystem that controls a device's node.
public typealias DeviceFabric = HubWire.DeviceFabric
