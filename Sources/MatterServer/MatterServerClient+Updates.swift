import HomeEngine
import HomeHub
import HubWire

extension MatterServerClient {
    /// `check_node_update`: the newest image of the hub's folder the node may take, as a MatterSoftwareVersion
    /// (`update_source` "local"), or null when there is none (Home Assistant's update entity then shows the device
    /// up to date).
    func checkNodeUpdate(_ id: String, _ args: NodeArguments) {
        guard engine.model.snapshot.devices[args.nodeID] != nil else { return send(Self.unknownNode(id, args.nodeID)) }
        work { [self] in
            do throws(HomeError) {
                let updates = try await engine.perform(ReadUpdates(), caller: caller)
                let node = updates.nodes.first { $0.nodeID == args.nodeID }
                send(Self.reply(id, node.flatMap { Self.softwareVersion($0) }?.rendered ?? "null"))
            } catch {
                send(Self.error(id, .updateCheckError, error.message))
            }
        }
    }

    /// `update_node`: the device is told the version is waiting (AnnounceOTAProvider), and null comes back; the
    /// hub's provider serves it from there, and the device's UpdateState and UpdateStateProgress reach the client as
    /// attribute updates.
    func updateNode(_ id: String, _ args: UpdateNodeArguments) {
        guard engine.model.snapshot.devices[args.nodeID] != nil else { return send(Self.unknownNode(id, args.nodeID)) }
        work { [self] in
            do throws(HomeError) {
                let version: UInt32
                switch args.softwareVersion {
                case .number(let number): version = number
                case .text(let text):
                    let updates = try await engine.perform(ReadUpdates(), caller: caller)
                    let node = updates.nodes.first { $0.nodeID == args.nodeID }
                    guard
                        let found = updates.images.first(where: {
                            $0.versionString == text && $0.vendorID == node?.vendorID && $0.productID == node?.productID
                        })
                    else {
                        throw HomeError(.notFound, "the hub holds no image of version \"\(text)\" for this device")
                    }
                    version = found.version
                }
                _ = try await engine.perform(
                    UpdateDevice(nodeID: args.nodeID, version: version, untilApplied: false), caller: caller)
                send(Self.reply(id, "null"))
            } catch {
                send(Self.error(id, .updateError, error.message))
            }
        }
    }

    /// python-matter-server's MatterSoftwareVersion for the image the node may take.
    static func softwareVersion(_ node: ReadUpdates.Node) -> JSONValue? {
        guard let image = node.available else { return nil }
        return .object([
            ("vid", .unsigned(UInt64(image.vendorID))), ("pid", .unsigned(UInt64(image.productID))),
            ("software_version", .unsigned(UInt64(image.version))),
            ("software_version_string", .string(image.versionString)),
            ("firmware_information", .null),
            ("min_applicable_software_version", .unsigned(UInt64(image.minimumApplicable ?? 0))),
            // No upper bound in the header: any version before this one.
            (
                "max_applicable_software_version",
                .unsigned(UInt64(image.maximumApplicable ?? max(image.version, 1) - 1))
            ),
            ("release_notes_url", image.releaseNotesURL.map(JSONValue.string) ?? .null),
            ("update_source", .string("local")),
        ])
    }
}
