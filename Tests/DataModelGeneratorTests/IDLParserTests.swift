import Testing

@testable import DataModelGenerator

@Suite struct IDLParserTests {
    @Test func parsesGlobalEnumsBitmapsAndStructs() throws {
        let file = try IDLParser.parse(
            """
            enum AreaTypeTag : enum8 {
              kAisle = 0;
              kMediaTVRoom = 54 [spec_name = "Media/TV Room"];
            }
            bitmap TestGlobalBitmap : bitmap32 {
              kFirstBit = 0x1;
              kSecondBit = 0x2;
            }
            fabric_scoped struct WebRTCSessionStruct {
              int16u id = 0;
              optional nullable char_string<64> label = 3;
              optional int16u videoStreams[] = 7;
              fabric_sensitive octet_string<128> data = 8;
              fabric_idx fabricIndex = 254;
            }
            """)
        #expect(
            file.enums == [
                IDLConstants(
                    name: "AreaTypeTag", baseType: "enum8",
                    entries: [.init(name: "kAisle", value: 0), .init(name: "kMediaTVRoom", value: 54)], line: 1)
            ])
        #expect(file.bitmaps.first?.entries.map(\.value) == [1, 2])
        let structure = try #require(file.structs.first)
        #expect(structure.isFabricScoped && structure.kind == .plain)
        #expect(
            structure.fields == [
                IDLField(name: "id", type: IDLType(name: "int16u"), id: 0, line: 10),
                IDLField(
                    name: "label", type: IDLType(name: "char_string", maxLength: 64), id: 3, isOptional: true,
                    isNullable: true, line: 11),
                IDLField(
                    name: "videoStreams", type: IDLType(name: "int16u", isList: true), id: 7, isOptional: true, line: 12
                ),
                IDLField(
                    name: "data", type: IDLType(name: "octet_string", maxLength: 128), id: 8, isFabricSensitive: true,
                    line: 13),
                IDLField(name: "fabricIndex", type: IDLType(name: "fabric_idx"), id: 254, line: 14),
            ])
    }

    static let cluster = """
        /** Switches things. */
        provisional cluster OnOff = 6 {
          revision 6;

          shared enum StartUpOnOffEnum : enum8 {
            kOff = 0;
          }

          bitmap Feature : bitmap32 {
            kLighting = 0x1;
          }

          struct PairStruct {
            int8u a = 0;
          }

          critical event StartUp = 0 {
            int32u softwareVersion = 0;
          }

          fabric_sensitive info event access(read: administer) Changed = 1 {
          }

          readonly attribute boolean onOff = 0;
          attribute access(read: manage, write: administer) optional nullable StartUpOnOffEnum startUpOnOff = 16387;
          timedwrite attribute int16u guarded = 2;
          provisional readonly attribute optional PairStruct pairs[] = 3;

          request struct OffWithEffectRequest {
            int8u effectIdentifier = 0;
          }

          response struct AddResponse = 0x10 {
            enum8 status = 0;
          }

          /** Turns it off. */
          command Off(): DefaultSuccess = 0;
          fabric timed command access(invoke: manage) OffWithEffect(OffWithEffectRequest): AddResponse = 64;
          internal command Secret(): DefaultSuccess = 99;
        }

        endpoint 1 {
          server cluster OnOff {
            ram attribute onOff default = false;
            callback attribute name default = "x{";
          }
        }
        """

    @Test func parsesAClusterWithEveryKindOfMember() throws {
        let file = try IDLParser.parse(Self.cluster)
        #expect(file.clusters.count == 1)
        let cluster = try #require(file.clusters.first)
        #expect(cluster.name == "OnOff" && cluster.id == 6 && cluster.revision == 6 && cluster.maturity == .provisional)
        #expect(cluster.documentation == "Switches things.")
        #expect(cluster.enums.map(\.name) == ["StartUpOnOffEnum"] && cluster.bitmaps.map(\.name) == ["Feature"])
        #expect(cluster.structs.map(\.name) == ["PairStruct", "OffWithEffectRequest", "AddResponse"])
        #expect(cluster.structs.map(\.kind) == [.plain, .request, .response(id: 0x10)])
    }

    @Test func parsesAttributeQualitiesAndAccess() throws {
        let attributes = try #require(IDLParser.parse(Self.cluster).clusters.first).attributes
        #expect(attributes.map(\.field.name) == ["onOff", "startUpOnOff", "guarded", "pairs"])
        #expect(attributes[0].isReadOnly && attributes[0].readPrivilege == "view")
        #expect(
            attributes[1]
                == IDLAttribute(
                    field: IDLField(
                        name: "startUpOnOff", type: IDLType(name: "StartUpOnOffEnum"), id: 16387, isOptional: true,
                        isNullable: true, line: 25),
                    readPrivilege: "manage", writePrivilege: "administer"))
        #expect(
            attributes[2].requiresTimedWrite && !attributes[2].isReadOnly && attributes[2].writePrivilege == "operate")
        #expect(attributes[3].field.type.isList && attributes[3].field.maturity == .provisional)
    }

    @Test func parsesCommandsAndEvents() throws {
        let cluster = try #require(IDLParser.parse(Self.cluster).clusters.first)
        #expect(cluster.commands.map(\.name) == ["Off", "OffWithEffect", "Secret"])
        let off = cluster.commands[0]
        #expect(
            off.input == nil && off.output == "DefaultSuccess" && off.id == 0 && off.documentation == "Turns it off.")
        let effect = cluster.commands[1]
        #expect(effect.input == "OffWithEffectRequest" && effect.output == "AddResponse" && effect.id == 64)
        #expect(
            effect.isTimed && effect.isFabricScoped && effect.invokePrivilege == "manage" && effect.documentation == nil
        )
        #expect(cluster.commands[2].maturity == .internal)
        #expect(cluster.events.map(\.name) == ["StartUp", "Changed"])
        #expect(cluster.events[0].priority == "critical" && cluster.events[0].fields.map(\.name) == ["softwareVersion"])
        #expect(
            cluster.events[1].isFabricSensitive && cluster.events[1].readPrivilege == "administer"
                && cluster.events[1].fields.isEmpty)
    }

    @Test func clustersWithoutARevisionAreRevision1() throws {
        #expect(try IDLParser.parse("deprecated cluster Old = 28 {}").clusters.first?.revision == 1)
        #expect(try IDLParser.parse("deprecated cluster Old = 28 {}").clusters.first?.maturity == .deprecated)
    }

    @Test(arguments: [
        ("cluster A = 1 {\n  attribute int8u x = 1\n}", "line 3: expected ';', found '}'"),
        (
            "cluster A = 1 {\n\n  bogus thing;\n}",
            "line 3: expected revision, enum, bitmap, struct, attribute, command or event, found 'bogus'"
        ),
        ("enum E : enum8 {\n  kA = ;\n}", "line 2: expected a constant value, found ';'"),
        ("readonly struct S {}", "line 1: 'readonly' cannot qualify a struct"),
        (
            "cluster A = 1 {\n  info critical event E = 0 {}\n}",
            "line 2: an event needs exactly one priority (critical, info or debug)"
        ),
        (
            "cluster A = 1 {\n  attribute access(invoke: view) int8u x = 1;\n}",
            "line 2: access role 'invoke' is not one of read, write here"
        ),
        (
            "cluster A = 1 {\n  command access(invoke: root) C(): DefaultSuccess = 0;\n}",
            "line 2: unknown privilege 'root'"
        ),
        ("endpoint 1 {\n  server cluster A {\n", "line 1: endpoint block opened here is never closed"),
        ("cluster A = 1 {", "line 1: expected a cluster member, found end of file"),
        ("namespace X {}", "line 1: expected enum, bitmap, struct, cluster or endpoint, found 'namespace'"),
    ])
    func reportsUnexpectedInputWithItsLine(source: String, message: String) {
        #expect(throws: (any Error).self) { try IDLParser.parse(source) }
        do {
            _ = try IDLParser.parse(source)
        } catch {
            #expect(error.description == message)
        }
    }
}
