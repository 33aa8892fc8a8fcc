import MatterTLV
import Testing

@testable import MatterOnboarding

@Suite struct SetupPayloadQRCodeTests {
    @Test func parsesTheSpecExamplePayload() throws {
        let payload = try SetupPayload(qrCode: "MT:Y.K9042C00KA0648G00")
        #expect(payload.version == 0)
        #expect(payload.vendorID == 0xFFF1)
        #expect(payload.productID == 0x8000)
        #expect(payload.commissioningFlow == .standard)
        #expect(payload.discoveryCapabilities == .ble)
        #expect(payload.discriminator == .long(3840))
        #expect(payload.passcode == 20_202_021)
        #expect(payload.extensions.isEmpty)
    }

    @Test func generatesTheSpecExamplePayload() throws {
        let payload = SetupPayload(
            vendorID: 0xFFF1, productID: 0x8000, discoveryCapabilities: .ble,
            discriminator: .long(3840), passcode: 20_202_021
        )
        #expect(try payload.qrCode() == "MT:Y.K9042C00KA0648G00")
    }

    /// connectedhomeip's default test payload: VID 12, PID 1, SoftAP, discriminator 128, passcode 2048.
    @Test func matchesTheSDKDefaultPayload() throws {
        let payload = SetupPayload(
            vendorID: 12, productID: 1, discoveryCapabilities: .softAP,
            discriminator: .long(128), passcode: 2048
        )
        #expect(try payload.qrCode() == "MT:M5L90MP500K64J00000")
        #expect(try SetupPayload(qrCode: "MT:M5L90MP500K64J00000") == payload)
    }

    @Test func parsesOptionalDataWithSerialNumberAndVendorTags() throws {
        let code = "MT:M5L90MP500K64J0A33P0SET70.QT52B.E23-WZE0WISA0DK5N1K8SQ1RYCU1O0"
        let payload = try SetupPayload(qrCode: code)
        #expect(payload.vendorID == 12)
        #expect(payload.discriminator == .long(128))
        #expect(payload.passcode == 2048)
        #expect(payload.serialNumber == "123456789")
        // The SDK writes the vendor tags first; the order on the wire is kept.
        #expect(payload.extensions.map(\.tag) == [0x82, 0x83, 0x00])
        #expect(payload.extensions[0].value == .utf8("myData"))
        #expect(payload.extensions[0].isVendorSpecific)
        #expect(payload.extensions[1].value == .signed(12))
        #expect(!payload.extensions[2].isVendorSpecific)
        #expect(try payload.qrCode() == code)
    }

    @Test func roundTripsEveryFlowAndCapability() throws {
        for flow in CommissioningFlow.allCases {
            for capabilities in [DiscoveryCapabilities.onNetwork, .ble, [.softAP, .ble, .onNetwork], []] {
                let payload = SetupPayload(
                    vendorID: 0xFFF4, productID: 0x1234, commissioningFlow: flow,
                    discoveryCapabilities: capabilities, discriminator: .long(0xABC), passcode: 99_999_998,
                    extensions: [SetupPayloadExtension(tag: 0x00, value: .unsigned(42))]
                )
                #expect(try SetupPayload(qrCode: payload.qrCode()) == payload)
            }
        }
    }

    @Test func rejectsBadInput() {
        let cases: [(String, OnboardingError)] = [
            ("MT:M5L90MP500W-GT68D20", .passcodeOutOfRange(111_111_111)),
            ("MT:Y.K9042C00KA0648G0", .invalidBase38Length(18)),
            ("MT:Y.K9042C00KA0648g00", .invalidBase38Character("g", position: 16)),
            ("MT:Y.K90", .payloadTooShort(bytes: 3)),
            ("MT:M5L90MP500K64J00000*M5L90U.D010K4J00000", .multiplePayloads),
            ("MT:.....", .invalidBase38Chunk(position: 0)),
        ]
        for (code, expected) in cases {
            #expect(throws: expected, "\(code)") { try SetupPayload(qrCode: code) }
        }
    }

    @Test func refusesToEncodeAShortDiscriminator() {
        let payload = SetupPayload(
            vendorID: 1, productID: 1, discoveryCapabilities: .onNetwork, discriminator: .short(3), passcode: 2048)
        #expect(throws: OnboardingError.discriminatorOutOfRange(3, short: true)) { try payload.qrCode() }
    }

    @Test func rejectsOptionalDataOfTheWrongShape() throws {
        // A common tag with the wrong type: numberOfDevices as a string.
        let bad = SetupPayload(
            vendorID: 1, productID: 1, discoveryCapabilities: .onNetwork, discriminator: .long(1), passcode: 2048,
            extensions: [SetupPayloadExtension(tag: 0x03, value: .utf8("two"))])
        let code = try bad.qrCode()
        #expect(throws: OnboardingError.self) { try SetupPayload(qrCode: code) }
    }
}
