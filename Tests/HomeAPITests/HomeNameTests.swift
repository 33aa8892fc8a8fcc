import HomeHub
import HomeRecords
import MatterDiscovery
import MatterPlatform
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct HomeNameTests {
    @Test func longNamesAreCutAtSixtyCodePointsNotGraphemesOrBytes() throws {
        // 31 × (e + COMBINING ACUTE ACCENT): 62 code points, 31 grapheme clusters, 93 UTF-8 bytes.
        let combining = String(repeating: "e\u{301}", count: 31)
        #expect(combining.count == 31)
        let cut = try HomeName.validated(combining, naming: "device")
        #expect(cut == String(repeating: "e\u{301}", count: 30))
        #expect(cut.unicodeScalars.count == 60)

        // 58 letters + MAN ZWJ WOMAN ZWJ GIRL: 63 code points but 59 grapheme clusters; the cut splits the family.
        let family = String(repeating: "a", count: 58) + "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        #expect(family.count == 59)
        let cutFamily = try HomeName.validated(family, naming: "device")
        #expect(
            Array(cutFamily.unicodeScalars)
                == Array((String(repeating: "a", count: 58) + "\u{1F468}\u{200D}").unicodeScalars))

        // 61 code points: one too many.
        let sixtyOne = String(repeating: "\u{1F600}", count: 61)
        #expect(try HomeName.validated(sixtyOne, naming: "device") == String(repeating: "\u{1F600}", count: 60))
    }

    @Test func namesOfSixtyCodePointsOrFewerAreKept() throws {
        // 60 precomposed é: 60 code points, 120 UTF-8 bytes, kept whole.
        let precomposed = String(repeating: "\u{E9}", count: 60)
        #expect(try HomeName.validated(precomposed, naming: "room") == precomposed)
        #expect(try HomeName.validated(" Hall ", naming: "room") == " Hall ")
    }

    @Test(arguments: ["", " ", "   \t", "\n", "\u{3000}", "\u{A0}\u{2003}"])
    func blankNamesAreInvalidArguments(_ name: String) {
        #expect {
            try HomeName.validated(name, naming: "device")
        } throws: { error in
            (error as? HomeError)?.code == .invalidArgument
        }
    }

    @Test func aNameBlankWithinItsFirstSixtyCodePointsIsInvalid() {
        let name = String(repeating: " ", count: 60) + "Lamp"
        #expect(throws: HomeError.self) { try HomeName.validated(name, naming: "device") }
    }
}

/// A name is printed in terminals and tables: what would break a row, or change what the user reads, is refused.
@Suite struct HomeNameControlTests {
    @Test(arguments: ["Lamp\nKitchen", "Tab\there", "\u{1B}[2JLamp", "Lamp\u{85}", "\u{202E}pmaL", "a\u{2066}b"])
    func controlCharactersAreInvalidAndShownEscaped(_ name: String) {
        let error = #expect(throws: HomeError.self) { try HomeName.validated(name, naming: "device") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("control character U+") == true)
        // The message itself carries no control character to the terminal.
        #expect(error?.message.unicodeScalars.contains { $0.properties.generalCategory == .control } == false)
    }

    @Test(arguments: ["\u{200B}", "\u{200D}\u{FE0F}", " \u{2060} "])
    func invisibleNamesAreInvalid(_ name: String) {
        #expect(throws: HomeError.self) { try HomeName.validated(name, naming: "room") }
    }

    /// `home commission`'s name and room are checked before anything is sent: a name the store refuses costs the
    /// device no commissioning (nothing listens at the address, so an attempt would fail some other way, later).
    @Test(.timeLimit(.minutes(1)), arguments: [("  ", "Office"), ("Lamp", "\u{1B}[2J")])
    func commissioningChecksTheNamesFirst(name: String, room: String) async throws {
        try await withHome { home, store, _ in
            let error = await #expect(throws: HomeError.self) {
                try await home.hub.perform(
                    CommissionDevice(
                        payload: "MT:Y.K9042C00KA0648G00", address: .ipv4(IPv4Address(127 << 24 | 1), port: 9),
                        interfaces: [], paaTrustStore: nil, acceptUntrustedDevice: true, name: name, room: room)
                )
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.hasPrefix(name == "Lamp" ? "invalid room name" : "invalid device name") == true)
            let nodes: [NodeRecord] = try await store.nodes()
            #expect(nodes.isEmpty)
        }
    }
}
