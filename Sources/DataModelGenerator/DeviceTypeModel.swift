/// One `<deviceType>` definition of the device-type XML (ZAP's matter-devices.xml), as read.
struct DeviceTypeEntry: Equatable, Sendable {
    var typeName = ""
    var deviceID: UInt64?
    var revision: UInt64?
    var deviceClass: String?
    var scope: String?
    var superset: String?
    var clusters: [ClusterInclude] = []
    var line: Int

    /// `<include cluster="On/Off" client="false" server="true" clientLocked="true" serverLocked="true">`.
    struct ClusterInclude: Equatable, Sendable {
        var cluster: String
        var client: Bool
        var server: Bool
        var clientLocked: Bool
        var serverLocked: Bool
        var line: Int
    }
}
