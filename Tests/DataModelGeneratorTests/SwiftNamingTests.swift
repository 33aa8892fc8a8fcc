import Testing

@testable import DataModelGenerator

@Suite struct SwiftNamingTests {
    @Test(arguments: [
        ("kDelayedOffFastFade", "delayedOffFastFade"), ("kPASE", "pase"), ("kOK", "ok"),
        ("kMediaTVRoom", "mediaTVRoom"),
        ("k2G4", "_2G4"), ("kAC41E", "ac41E"), ("kDefault", "`default`"), ("kKeepGoing", "keepGoing"),
    ])
    func constantNames(idl: String, swift: String) {
        #expect(SwiftNaming.member(idl, isConstant: true) == swift)
    }

    @Test(arguments: [
        ("onOff", "onOff"), ("TCAcceptedVersion", "tcAcceptedVersion"), ("SDPMid", "sdpMid"), ("URLs", "urls"),
        ("kind", "kind"), ("extension", "`extension`"),
    ])
    func memberNames(idl: String, swift: String) {
        #expect(SwiftNaming.member(idl) == swift)
    }

    @Test func reservedTypeNamesGetTheirKind() {
        #expect(SwiftNaming.typeName("Type", kind: "Enum") == "TypeEnum")
        #expect(SwiftNaming.typeName("modeTag", kind: "Struct") == "ModeTag")
    }

    @Test(arguments: [
        ("On/Off Light", "onOffLight"), ("On/Off Plug-in Unit", "onOffPlugInUnit"), ("EVSE", "evse"),
        ("OTA Requestor", "otaRequestor"), ("Smoke CO Alarm", "smokeCOAlarm"),
    ])
    func deviceTypeNames(xml: String, swift: String) {
        #expect(SwiftNaming.words(xml) == swift)
    }

    @Test func normalisesNamesForTheJoin() {
        #expect(SwiftNaming.normalized("On/Off") == SwiftNaming.normalized("OnOff"))
        #expect(
            SwiftNaming.normalized("PM2.5 Concentration Measurement")
                == SwiftNaming.normalized("Pm25ConcentrationMeasurement"))
        #expect(SwiftNaming.normalized("Wi-Fi Network Diagnostics") == "wifinetworkdiagnostics")
    }
}
