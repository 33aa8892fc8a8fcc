import Foundation
import HomeAPI

/// `home groups` and `home group create|add|remove|delete`: the home's named groups of devices, through the Home API.
/// A group is one Matter group the hub gives its devices; `home on|off|toggle|level --group NAME` switches them all
/// with one message.
enum GroupCommands {
    static let devicesArgument = CommandSpec.Argument(
        name: "DEVICE", help: "Device IDs or names (see 'home devices').", isRepeating: true)
    static let groupArgument = CommandSpec.Argument(
        name: "GROUP", help: "The group's name, whatever its case (see 'home groups').")

    static let groups = CommandSpec(
        name: "groups",
        summary: "List the home's named groups of devices: name, Matter group ID and devices.",
        options: [HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments)
            let (groups, devices) = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                (try await home.groups().list(), try await home.devices().list())
            }
            let names = Dictionary(devices.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let rows = groups.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }.map { group in
                [
                    group.name, String(format: "0x%04X", group.id),
                    group.deviceIDs.map { names[$0] ?? $0 }.joined(separator: ", "),
                ]
            }
            guard !rows.isEmpty else { return .success("no groups (add one with 'home group create NAME DEVICE…')\n") }
            return .success(TextTable.render(header: ["GROUP", "ID", "DEVICES"], rows: rows))
        }
    )

    static let group = CommandSpec(
        name: "group",
        summary: "Create, change and delete named groups of devices (one Matter group each, whatever the rooms).",
        subcommands: [
            CommandSpec(
                name: "create",
                summary: "Create a group of devices (names longer than 60 Unicode code points are cut).",
                arguments: [
                    .init(name: "NAME", help: "The group's name; no other group may have it, whatever its case."),
                    devicesArgument,
                ],
                options: [HubCommands.stateOption],
                run: { arguments throws(CommandLineError) in
                    let home = try await HomeAPICommands.open(arguments)
                    let devices = try await Self.devices(arguments, in: home)
                    let requested = arguments.argument("NAME")
                    let group = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                        do throws(HomeError) {
                            return try await home.createGroup(name: requested, devices: devices)
                        } catch {
                            guard error.code == .alreadyExists else { throw error }
                            throw HomeError(.alreadyExists, "group \"\(requested)\" already exists (see 'home groups')")
                        }
                    }
                    return .success(
                        "created group \"\(group.name)\" (Matter group \(String(format: "0x%04X", group.id))) of "
                            + "\(group.deviceIDs.count) device\(group.deviceIDs.count == 1 ? "" : "s")\n")
                }
            ),
            change("add", summary: "Add devices to a group.") { group, devices throws(HomeError) in
                try await group.add(devices)
            },
            change("remove", summary: "Take devices out of a group; they stay in the home.") {
                group, devices throws(HomeError) in try await group.remove(devices)
            },
            CommandSpec(
                name: "delete",
                summary: "Delete a group; its devices stay in the home.",
                arguments: [groupArgument],
                options: [HubCommands.stateOption],
                run: { arguments throws(CommandLineError) in
                    let home = try await HomeAPICommands.open(arguments)
                    let group = try await Self.group(arguments.argument("GROUP"), in: home)
                    try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                        try await home.deleteGroup(group)
                    }
                    return .success("deleted group \"\(group.name)\"\n")
                }
            ),
        ]
    )

    private static func change(
        _ name: String, summary: String,
        _ body: @escaping @Sendable (DeviceGroup, [HomeDevice]) async throws(HomeError) -> DeviceGroup
    ) -> CommandSpec {
        CommandSpec(
            name: name, summary: summary, arguments: [groupArgument, devicesArgument],
            options: [HubCommands.stateOption],
            run: { arguments throws(CommandLineError) in
                let home = try await HomeAPICommands.open(arguments)
                let group = try await Self.group(arguments.argument("GROUP"), in: home)
                let devices = try await Self.devices(arguments, in: home)
                let changed = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                    try await body(group, devices)
                }
                return .success(
                    "group \"\(changed.name)\" has \(changed.deviceIDs.count) device\(changed.deviceIDs.count == 1 ? "" : "s")\n"
                )
            })
    }

    private static func devices(
        _ arguments: ParsedArguments, in home: Home
    ) async throws(CommandLineError) -> [HomeDevice] {
        var devices: [HomeDevice] = []
        for text in arguments.repeatedArguments["DEVICE"] ?? [] {
            devices.append(try await HomeAPICommands.device(text, in: home))
        }
        return devices
    }

    /// A group by its name, as rooms are matched (`NameMatch`); an unknown name is refused listing the groups there are.
    static func group(_ name: String, in home: Home) async throws(CommandLineError) -> DeviceGroup {
        let groups = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in try await home.groups().list()
        }
        return try HomeAPICommands.named(
            name, in: groups, \.name, kind: "group", adding: "home group create NAME DEVICE…")
    }
}
