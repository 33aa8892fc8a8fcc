import Foundation
import HomeAPI
import HomeHub
import HomeRecords
import Synchronization

/// `home rename`, `home rooms`, `home room add|rename|delete`, `home move`, `home remove`: the home's names, rooms and
/// devices, changed through the Home API
/// (so the CLI keeps its rules: names cut to 60 Unicode code points, room names unique whatever their case).
enum HomeAPICommands {
    static let rename = CommandSpec(
        name: "rename",
        summary: "Rename a device (names longer than 60 Unicode code points are cut).",
        arguments: [LiveCommands.deviceArgument, .init(name: "NAME", help: "The new name.")],
        options: [HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let home = try await open(arguments)
            let device = try await device(arguments.argument("DEVICE"), in: home)
            let requested = arguments.argument("NAME")
            let renamed = try await refusingBadInput { () throws(HomeError) in try await device.setName(requested) }
            return .success(
                "\(device.name) (\(device.id)) is now \"\(renamed.name)\"\(cutNote(requested, renamed.name))\n")
        }
    )

    static let rooms = CommandSpec(
        name: "rooms",
        summary: "List the rooms of the home: name, structure and how many devices each holds.",
        options: [
            .init(name: "json", valueName: nil, help: "Print one JSON array instead of a table."),
            HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let home = try await open(arguments)
            let (rooms, structures, devices) = try await refusingBadInput { () throws(HomeError) in
                (try await home.rooms().list(), try await home.structures().list(), try await home.devices().list())
            }
            return .success(
                RoomList.render(
                    rooms: rooms, structures: structures, devices: devices, json: arguments.flags.contains("json")))
        }
    )

    static let room = CommandSpec(
        name: "room",
        summary: "Add, rename and delete the home's rooms.",
        subcommands: [
            CommandSpec(
                name: "add",
                summary: "Add a room to the home's structure (names longer than 60 Unicode code points are cut).",
                arguments: [
                    .init(name: "NAME", help: "The room's name; no other room may have it, whatever its case.")
                ],
                options: [HubCommands.stateOption],
                run: { arguments throws(CommandLineError) in
                    let home = try await open(arguments)
                    let requested = arguments.argument("NAME")
                    let room = try await refusingBadInput { () throws(HomeError) in
                        do throws(HomeError) {
                            return try await home.createRoom(name: requested)
                        } catch {
                            guard error.code == .alreadyExists else { throw error }
                            throw HomeError(.alreadyExists, "room \"\(requested)\" already exists (see 'home rooms')")
                        }
                    }
                    return .success("added room \"\(room.name)\"\(cutNote(requested, room.name))\n")
                }
            ),
            CommandSpec(
                name: "rename",
                summary: "Rename a room (names longer than 60 Unicode code points are cut).",
                arguments: [
                    .init(name: "ROOM", help: "The room's name, whatever its case (see 'home rooms')."),
                    .init(name: "NAME", help: "Its new name."),
                ],
                options: [HubCommands.stateOption],
                run: { arguments throws(CommandLineError) in
                    let home = try await open(arguments)
                    let room = try await Self.room(arguments.argument("ROOM"), in: home)
                    let requested = arguments.argument("NAME")
                    let renamed = try await refusingBadInput { () throws(HomeError) in try await room.setName(requested)
                    }
                    return .success(
                        "room \"\(room.name)\" is now \"\(renamed.name)\"\(cutNote(requested, renamed.name))\n")
                }
            ),
            CommandSpec(
                name: "delete",
                summary: "Delete a room; its devices stay in the home, in no room.",
                arguments: [.init(name: "ROOM", help: "The room's name, whatever its case (see 'home rooms').")],
                options: [HubCommands.stateOption],
                run: { arguments throws(CommandLineError) in
                    let home = try await open(arguments)
                    let room = try await Self.room(arguments.argument("ROOM"), in: home)
                    try await refusingBadInput { () throws(HomeError) in try await home.deleteRoom(room) }
                    return .success("deleted room \"\(room.name)\"\n")
                }
            ),
        ]
    )

    static let move = CommandSpec(
        name: "move",
        summary: "Put a device in a room.",
        arguments: [
            LiveCommands.deviceArgument,
            .init(name: "ROOM", help: "The room's name, whatever its case (see 'home rooms')."),
        ],
        options: [HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let home = try await open(arguments)
            let device = try await device(arguments.argument("DEVICE"), in: home)
            let room = try await Self.room(arguments.argument("ROOM"), in: home)
            let moved = try await refusingBadInput { () throws(HomeError) in
                try await home.move(device: device, to: room)
            }
            return .success("\(moved.name) (\(moved.id)) is now in \(room.name)\n")
        }
    )

    static let remove = CommandSpec(
        name: "remove",
        summary:
            "Remove a device from the home: its node leaves the hub's fabric and is forgotten, with every device it has.",
        arguments: [
            .init(
                name: "DEVICE",
                help: "A device ID or name (see 'home devices'), or a node ID, which names the whole node "
                    + "(see 'home devices --multipart'): a bridge is removed by its node ID, with its bridged devices; "
                    + "so is a node whose adding was interrupted.")
        ],
        options: [HubCommands.interfaceOption, HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let home = try await open(arguments, interfaces: HubCommands.interfaceNames(arguments))
            let text = arguments.argument("DEVICE")
            let interrupted = try await refusingBadInput { () throws(HomeError) in
                try await home.interruptedDevices().list()
            }
            if let node = interrupted.first(where: { $0.id == text.uppercased() }) {
                let failure = try await refusingBadInput { () throws(HomeError) in try await node.remove() }
                let removed = "removed node \(node.id), whose adding had been interrupted\n"
                guard let failure else { return .success(removed) }
                return .success(
                    removed
                        + "note: the device did not leave the hub's fabric (\(failure)); unless its fail-safe rolled "
                        + "the fabric back, it keeps it until it is factory reset\n")
            }
            let nodes = try await refusingBadInput { () throws(HomeError) in
                try await home.devices(enableMultipartDevices: true).list()
            }
            let device: HomeDevice
            if let node = nodes.first(where: { $0.id == text }) {
                device = node
            } else {
                device = try await Self.device(text, in: home)
            }
            let outcome = try await refusingBadInput { () throws(HomeError) in
                do throws(HomeError) {
                    return try await device.decommission()
                } catch  where error.code == .failedPrecondition {
                    throw HomeError(.invalidArgument, error.message)
                }
            }
            let removed = "removed \(device.name) (\(outcome.removedDeviceIDs.sorted().joined(separator: ", ")))\n"
            guard let failure = outcome.fabricRemovalFailure else { return .success(removed) }
            return .success(
                removed
                    + "note: the device did not leave the hub's fabric (\(failure)); it keeps it until it is factory reset\n"
            )
        }
    )

    // MARK: Helpers

    /// The home on `--state` (or the default state directory); `interfaces` are where mDNS may look for devices, and
    /// `paaTrustStore` where attestation finds its roots (default: the state directory's paa/).
    static func open(
        _ arguments: ParsedArguments, interfaces: [String] = [], paaTrustStore: String? = nil
    ) async throws(CommandLineError) -> Home {
        do {
            let home = try await Home.connect(
                Home.Configuration(
                    stateDirectory: arguments.values["state"], networkInterfaces: interfaces,
                    paaTrustStore: paaTrustStore))
            OpenedHomes.current?.add(home)
            return home
        } catch {
            throw .invalidInput("cannot open the hub's state: \(error.message)")
        }
    }

    /// A device by its ID or its name, whatever its case; a name several devices share is refused (give the ID).
    static func device(_ text: String, in home: Home) async throws(CommandLineError) -> HomeDevice {
        let devices = try await refusingBadInput { () throws(HomeError) in try await home.devices().list() }
        if let device = devices.first(where: { $0.id == text }) { return device }
        let named = devices.filter { $0.name.caseInsensitiveCompare(text) == .orderedSame }.sorted { $0.id < $1.id }
        guard let first = named.first else { throw .invalidInput("no device \"\(text)\" (see 'home devices')") }
        guard named.count == 1 else {
            throw .invalidInput(
                "\(named.count) devices are named \"\(text)\" (\(named.map(\.id).joined(separator: ", "))): give the device's ID"
            )
        }
        return first
    }

    /// A room by its name, as the store matches room names (`NameMatch`); an unknown name is refused listing the
    /// rooms there are.
    static func room(_ name: String, in home: Home) async throws(CommandLineError) -> Room {
        let rooms = try await refusingBadInput { () throws(HomeError) in try await home.rooms().list() }
        return try named(name, in: rooms, \.name, kind: "room", adding: "home room add NAME")
    }

    /// The element called `name`, as the store matches names (`NameMatch`); an unknown name is refused listing the
    /// names there are, or saying how to add the first.
    static func named<Element>(
        _ name: String, in elements: some Collection<Element>, _ nameOf: (Element) -> String, kind: String,
        adding: String
    ) throws(CommandLineError) -> Element {
        guard let found = NameMatch.first(name, in: elements, named: nameOf) else {
            let names = elements.map(nameOf).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            throw .invalidInput(
                "no \(kind) \"\(name)\"; "
                    + (names.isEmpty
                        ? "the home has no \(kind)s yet (add one with '\(adding)')"
                        : "the \(kind)s are: " + names.joined(separator: ", ")))
        }
        return found
    }

    /// " (cut to 60 Unicode code points)" when the stored name is shorter than the one asked for.
    private static func cutNote(_ requested: String, _ stored: String) -> String {
        requested == stored ? "" : " (cut to \(stored.unicodeScalars.count) Unicode code points)"
    }

    /// Runs a Home API call: what the caller got wrong (a blank name, a name taken, a device or room gone meanwhile)
    /// exits 2; a failure of the hub's store exits 1.
    static func refusingBadInput<Result>(
        _ body: () async throws(HomeError) -> Result
    ) async throws(CommandLineError) -> Result {
        do {
            return try await body()
        } catch {
            switch error.code {
            case .invalidArgument, .alreadyExists, .notFound: throw .invalidInput(error.message)
            default: throw .failed(error.message)
            }
        }
    }
}

/// The homes one command opened, closed when it ends (`HomeCommand.run`).
final class OpenedHomes: Sendable {
    @TaskLocal static var current: OpenedHomes?
    private let homes = Mutex<[Home]>([])

    func add(_ home: Home) {
        homes.withLock { $0.append(home) }
    }

    func close() async {
        for home in homes.withLock({ homes in
            defer { homes = [] }; return homes
        }) { await home.close() }
    }
}
