import Foundation
import MatterDataModel
import MatterTLV
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire
@testable import MatterServer

/// Name-keyed payloads to TLV and back, through the generated field tables (facts §3: CHIP Python field names).
@Suite struct MatterServerPayloadTests {
    static func arguments(_ json: String) throws -> [String: UntypedJSON] {
        let envelope = #"{"message_id": "1", "args": \#(json)}"#
        return try JSONDecoder().decode(MatterServerRequest.self, from: Data(envelope.utf8)).args
    }

    @Test func aLevelCommandAsHomeAssistantSendsItBecomesTheTypedStructure() throws {
        let fields = try #require(
            LevelControlCluster.info.commandFields[LevelControlCluster.Commands.MoveToLevelWithOnOff.id])
        let payload = try Self.arguments(
            #"{"level": 128, "transitionTime": null, "optionsMask": 0, "optionsOverride": 0}"#)
        let element = try MatterServerPayload.encode(payload, fields: fields)
        let typed = LevelControlCluster.Commands.MoveToLevelWithOnOff(
            level: 128, transitionTime: .null, optionsMask: [], optionsOverride: [])
        #expect(element == TLVElement(typed.tlvValue()))
    }

    /// The generated limits: a value wider than its field is refused whoever sends it; an enum value the data model
    /// does not name passes for a Matter-server client (a newer specification's) and is refused for the terminal; an
    /// enum's value may be given by name.
    @Test func integersFitTheirFieldAndEnumsTakeNames() throws {
        let fields = try #require(LevelControlCluster.info.commandFields[LevelControlCluster.Commands.Move.id])
        let move = { (json: String, known: Bool) throws -> TLVElement in
            try MatterServerPayload.encode(try Self.arguments(json), fields: fields, knownValuesOnly: known)
        }
        let byName = try move(#"{"moveMode": "down", "rate": 5, "optionsMask": 1, "optionsOverride": 0}"#, true)
        let typed = LevelControlCluster.Commands.Move(
            moveMode: .down, rate: .value(5), optionsMask: .executeIfOff, optionsOverride: [])
        #expect(byName == TLVElement(typed.tlvValue()))
        let newer = #"{"moveMode": 2, "rate": 5, "optionsMask": 0, "optionsOverride": 0}"#
        #expect(throws: Never.self) { try move(newer, false) }
        #expect {
            try move(newer, true)
        } throws: { error in
            "\(error)" == "field moveMode is one of Up (0), Down (1), not 2"
        }
        for known in [false, true] {
            #expect {
                try move(#"{"moveMode": 0, "rate": 256, "optionsMask": 0, "optionsOverride": 0}"#, known)
            } throws: { error in
                "\(error)" == "field rate is an integer from 0 to 255, not 256"
            }
        }
    }

    @Test func typesAreCheckedAndNothingIsDropped() throws {
        let fields = [
            FieldInfo(0, "offset", .signed), FieldInfo(1, "key", .bytes), FieldInfo(2, "note", .utf8, optional: true),
            FieldInfo(3, "targets", .list(.structure([FieldInfo(0, "node", .unsigned)]))),
        ]
        let element = try MatterServerPayload.encode(
            try Self.arguments(#"{"offset": -3, "key": "AQID", "targets": [{"node": 18446744073709551615}]}"#),
            fields: fields)
        #expect(
            element
                == TLVElement(
                    .structure([
                        TLVElement(tag: .context(0), .signed(-3)), TLVElement(tag: .context(1), .bytes([1, 2, 3])),
                        TLVElement(
                            tag: .context(3),
                            .array([TLVElement(.structure([TLVElement(tag: .context(0), .unsigned(.max))]))])),
                    ])))
        // And back, by name (the optional field absent stays absent).
        #expect(
            MatterServerPayload.decode(element, fields: fields).rendered
                == #"{"offset":-3,"key":"AQID","targets":[{"node":18446744073709551615}]}"#)
        for (json, reason) in [
            (#"{"offset": "x", "key": "AQID", "targets": []}"#, "field offset is not an integer"),
            (#"{"offset": 1, "key": "***", "targets": []}"#, "field key is an octet string: base64 expected"),
            (#"{"offset": 1, "key": "AQID"}"#, "field targets is missing"),
            (#"{"offset": 1, "key": "AQID", "targets": [], "extra": 1}"#, "the command has no field extra"),
            (#"{"offset": null, "key": "AQID", "targets": []}"#, "field offset may not be null"),
        ] {
            let error = #expect(throws: MatterServerPayload.Invalid.self) {
                try MatterServerPayload.encode(try Self.arguments(json), fields: fields)
            }
            #expect(error?.description.hasPrefix(reason) == true, "\(json): \(String(describing: error))")
        }
    }

    /// A value to write is tag-keyed as attributes are reported, or name-keyed as python-matter-server also takes:
    /// the same TLV either way; a field given both ways is refused.
    @Test func aValueToWriteIsKeyedByTagOrByName() throws {
        let acl = try #require(AccessControlCluster.info.writableAttributes[AccessControlCluster.Attributes.acl.id])
        let byTag = try Self.arguments(#"{"v": [{"1": 5, "2": 2, "3": [112233], "4": null, "254": 1}]}"#)["v"]
        let byName = try Self.arguments(
            #"{"v": [{"privilege": 5, "authMode": 2, "subjects": [112233], "targets": null, "fabricIndex": 1}]}"#)["v"]
        let encoded = try MatterServerPayload.encode(try #require(byTag), as: acl)
        #expect(encoded == (try MatterServerPayload.encode(try #require(byName), as: acl)))
        let typed = AccessControlCluster.AccessControlEntryStruct(
            privilege: .administer, authMode: .case, subjects: .value([112233]), targets: .null, fabricIndex: 1)
        #expect(encoded == TLVElement(.array([TLVElement(typed.tlvValue())])))
        let twice = try #require(try Self.arguments(#"{"v": [{"1": 5, "privilege": 5, "2": 2}]}"#)["v"])
        #expect(throws: MatterServerPayload.Invalid.self) { try MatterServerPayload.encode(twice, as: acl) }
        let unknown = try #require(try Self.arguments(#"{"v": [{"1": 5, "2": 2, "9": 1}]}"#)["v"])
        #expect(throws: MatterServerPayload.Invalid.self) { try MatterServerPayload.encode(unknown, as: acl) }
    }
}
