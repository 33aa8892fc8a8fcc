import Foundation
import HomeAPI

// The Home API examples, each in its own file, run against the devices of a real hub:
//   swift run home-examples [--state DIR] EXAMPLE [ARGUMENTS]
// Without --state, the hub's default state directory is used (the one `home` uses).

let usage = """
    usage: home-examples [--state DIR] EXAMPLE [ARGUMENTS]
      list-devices                 list all devices, with their rooms
      rename DEVICE NAME           rename a device (DEVICE: its ID or name)
      move DEVICE ROOM             put a device in a room, creating the room when it is new
      connectivity                 every device's connectivity and data source locality
      turn-on-when-seen DEVICE     subscribe to its On/Off Light type and turn it on at the first update
      get-type DEVICE              get its Dimmable Light type, or say it has none
      check-types DEVICE           its device types with subscribeAll, and which is primary
      list-lights                  the lights across the four light types, and which have Level Control
      trait-connectivity DEVICE    connectivity and locality of a trait, its type and its device
      vendor DEVICE                vendor name, vendor ID and product ID of the device's node
      addresses DEVICE             the IP addresses of the device's node
      multipart-parts              one device per node, its switch and light parts told apart by their tags
      remove DEVICE                what removing the device would do, then remove it (with its node)
      events DEVICE SECONDS        every event of the device for SECONDS, a switch's presses decoded

    """

var arguments = Array(CommandLine.arguments.dropFirst())
var stateDirectory: String?
if arguments.first == "--state", arguments.count >= 2 {
    stateDirectory = arguments[1]
    arguments.removeFirst(2)
}

do {
    let home =
        if let stateDirectory { try await Home.connect(stateDirectory: stateDirectory) } else {
            try await Home.connect()
        }
    switch (arguments.first, arguments.count) {
    case ("list-devices", 1): try await ListDevices.run(home)
    case ("rename", 3): try await RenameDevice.run(home, device: arguments[1], name: arguments[2])
    case ("move", 3): try await MoveToRoom.run(home, device: arguments[1], room: arguments[2])
    case ("connectivity", 1): try await DeviceConnectivity.run(home)
    case ("turn-on-when-seen", 2): try await TurnOnWhenSeen.run(home, device: arguments[1])
    case ("get-type", 2): try await GetDeviceType.run(home, device: arguments[1])
    case ("check-types", 2): try await CheckTypes.run(home, device: arguments[1])
    case ("list-lights", 1): try await ListLights.run(home)
    case ("trait-connectivity", 2): try await TraitConnectivity.run(home, device: arguments[1])
    case ("vendor", 2): try await VendorInfo.run(home, device: arguments[1])
    case ("addresses", 2): try await IPAddresses.run(home, device: arguments[1])
    case ("multipart-parts", 1): try await MultipartParts.run(home)
    case ("remove", 2): try await RemoveDevice.run(home, device: arguments[1])
    case ("events", 3):
        guard let seconds = Int(arguments[2]), seconds > 0 else {
            FileHandle.standardError.write(Data("SECONDS must be a positive number\n".utf8))
            exit(2)
        }
        try await WatchEvents.run(home, device: arguments[1], seconds: seconds)
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
