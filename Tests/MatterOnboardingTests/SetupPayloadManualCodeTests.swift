import Testing

@testable import MatterOnboarding

@Suite struct SetupPayloadManualCodeTests {
    @Test func parsesThe11DigitCode() throws {
        let payload = try SetupPayload(manualCode: "34970112332")
        #expect(payload.discriminator == .short(15))
        #expect(payload.passcode == 20_202_021)
        #expect(payload.vendorID == nil)
        #expect(payload.productID == nil)
        #expect(payload.discoveryCapabilities == nil)
        #expect(payload.commissioningFlow == .standard)
    }

    @Test func parsesThe21DigitCode() throws {
        let payload = try SetupPayload(manualCode: "749701123365521327694")
        #expect(payload.discriminator == .short(15))
        #expect(payload.passcode == 20_202_021)
        #expect(payload.vendorID == 65521)
        #expect(payload.productID == 32769)
        #expect(payload.commissioningFlow == .custom)
    }

    @Test func generatesFromTheQRCodeValues() throws {
        let qr = try SetupPayload(qrCode: "MT:Y.K9042C00KA0648G00")
        #expect(try qr.manualCode() == "34970112332")
        let sdkDefault = try SetupPayload(qrCode: "MT:M5L90MP500K64J00000")
        #expect(try sdkDefault.manualCode() == "00204800002")
        var custom = qr
        custom.commissioningFlow = .custom
        custom.productID = 32769
        #expect(try custom.manualCode() == "749701123365521327694")
    }

    @Test func acceptsLabelFormatting() throws {
        #expect(try SetupPayload(parsing: " 3497-011-2332 ").passcode == 20_202_021)
        #expect(try SetupPayload(parsing: "3497 011 2332").discriminator == .short(15))
    }

    @Test func rejectsBadCodes() {
        let cases: [(String, OnboardingError)] = [
            ("34970112331", .checkDigitMismatch(expected: 2, found: 1)),
            ("3497011233", .manualCodeLength(10)),
            ("349701123321", .manualCodeLength(12)),
            (
                "0112076781" + String(Verhoeff.checkDigit(for: [0, 1, 1, 2, 0, 7, 6, 7, 8, 1])),
                .passcodeOutOfRange(111_111_111)
            ),
            ("3497a112332", .unrecognizedFormat),
        ]
        for (code, expected) in cases {
            #expect(throws: expected, "\(code)") { try SetupPayload(manualCode: code) }
        }
    }

    @Test func rejectsAReservedFirstDigitAndAMismatchedVendorFlag() throws {
        let body: [UInt8] = [8, 4, 9, 7, 0, 1, 1, 2, 3, 3]
        #expect(throws: OnboardingError.reservedManualCodeDigit(8)) {
            try SetupPayload(manualCode: body.map(String.init).joined() + String(Verhoeff.checkDigit(for: body)))
        }
        // First digit 7 sets the vendor-and-product flag, which an 11-digit code cannot honour.
        let flagged: [UInt8] = [7, 4, 9, 7, 0, 1, 1, 2, 3, 3]
        #expect(throws: OnboardingError.vendorAndProductFlagMismatch(digits: 11)) {
            try SetupPayload(manualCode: flagged.map(String.init).joined() + String(Verhoeff.checkDigit(for: flagged)))
        }
    }

    @Test func everyForbiddenPasscodeIsRefused() {
        for passcode in Passcode.forbidden {
            let payload = SetupPayload(
                vendorID: nil, productID: nil, discoveryCapabilities: nil, discriminator: .short(1), passcode: passcode)
            #expect(throws: OnboardingError.self) { try payload.manualCode() }
        }
        #expect(OnboardingError.forbiddenPasscode(12_345_678).description == "passcode 12345678 is not allowed")
        #expect(OnboardingError.forbiddenPasscode(0).description == "passcode 00000000 is not allowed")
    }

    @Test func roundTripsAcrossTheRange() throws {
        for passcode: UInt32 in [1, 2048, 16383, 16384, 20_202_021, 99_999_998] {
            for short: UInt8 in [0, 5, 15] {
                let payload = SetupPayload(
                    vendorID: nil, productID: nil, discoveryCapabilities: nil, discriminator: .short(short),
                    passcode: passcode)
                #expect(try SetupPayload(manualCode: payload.manualCode()) == payload)
            }
        }
    }
}
