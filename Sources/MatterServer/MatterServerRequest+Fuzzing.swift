import Foundation
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterTLV

/// What the fuzz target feeds the Matter-server API's command decoding: a client's text frame as JSON, decoded as the
/// API decodes a command, and a `device_command` payload encoded as the named command's TLV fields. Bad input must be
/// refused, never trap; whatever is accepted encodes to TLV that reads back the same, and renders, as the API would
/// send it back, to JSON a client can parse.
@_spi(Fuzzing)
public enum MatterServerRequestFuzzing {
    public static func take(_ bytes: [UInt8]) {
        guard let request = try? JSONDecoder().decode(MatterServerRequest.self, from: Data(bytes)) else { return }
        guard case .object(let payload)? = request.args["payload"] else { return }
        // The named cluster and command when the data model has them, else one chosen by the message ID, so payloads
        // meet every command's fields.
        let clusters = MatterClusters.all
        let choice = request.messageID.utf8.reduce(0) { $0 &+ Int($1) }
        let cluster =
            request.args["cluster_id"]?.unsigned.flatMap { id in clusters.first { UInt64($0.id.rawValue) == id } }
            ?? clusters[choice % clusters.count]
        let commands = cluster.commandFields.sorted { $0.key.rawValue < $1.key.rawValue }
        guard !commands.isEmpty else { return }
        let fields =
            request.args["command_name"]?.string.flatMap { name in
                cluster.acceptedCommands.first { $0.value == name }.flatMap { cluster.commandFields[$0.key] }
            } ?? commands[choice / clusters.count % commands.count].value
        guard let element = try? MatterServerPayload.encode(payload, fields: fields) else { return }
        let encoded = TLVWriter.encode(element)
        guard let read = try? TLVReader.decode(encoded) else { preconditionFailure("an encoded payload does not read") }
        precondition(TLVWriter.encode(read) == encoded, "an encoded payload reads back different")
        let rendered = MatterServerPayload.decode(read, fields: fields).rendered
        precondition(
            (try? JSONSerialization.jsonObject(with: Data(rendered.utf8), options: [.fragmentsAllowed])) != nil,
            "the payload renders to text that is not JSON: \(rendered)")
    }
}
