import MatterCrypto
import MatterTestSupport
import Testing

@testable import MatterMessaging

/// Matter Core §4.13.1.3, §4.14.2.3: a new session's local ID is one no session of the node has. Every establishment
/// of a process reserves its ID on the one exchange manager, so two under way at once, or one beside the hundreds of
/// sessions a hub holds, never draw the same.
@Suite struct SessionIDReservationTests {
    private static let range: ClosedRange<UInt16> = 0x0100...0xFFFF

    private static func parameters(_ localSessionID: UInt16) -> SecureSessionParameters {
        SecureSessionParameters(
            localSessionID: localSessionID, peerSessionID: 7, encryptionKey: [UInt8](repeating: 1, count: 16),
            decryptionKey: [UInt8](repeating: 2, count: 16), localNonceNodeID: 0, peerNonceNodeID: 0)
    }

    @Test func anIDInUseOrReservedIsSteppedPastAndAReleasedOneIsFreeAgain() throws {
        var manager = ExchangeManager<String>(random: RepeatingRandom([0]))
        _ = try manager.addSecureSession(Self.parameters(0x0200), peer: "device")
        // The draw lands on the session's ID: the next one is handed out, and reserved.
        #expect(try manager.reserveSessionID(in: Self.range, startingAt: 0x0200) == 0x0201)
        #expect(try manager.reserveSessionID(in: Self.range, startingAt: 0x0200) == 0x0202)
        // From the top of the range it wraps to the bottom.
        #expect(try manager.reserveSessionID(in: Self.range, startingAt: 0xFFFF) == 0xFFFF)
        #expect(try manager.reserveSessionID(in: Self.range, startingAt: 0xFFFF) == 0x0100)
        manager.releaseSessionID(0x0201)
        #expect(try manager.reserveSessionID(in: Self.range, startingAt: 0x0200) == 0x0201)
    }

    @Test func addingTheSessionTakesOverItsReservationAndRemovingItFreesTheID() throws {
        var manager = ExchangeManager<String>(random: RepeatingRandom([0]))
        let id = try manager.reserveSessionID(in: Self.range, startingAt: 0x1234)
        let session = try manager.addSecureSession(Self.parameters(id), peer: "device")
        #expect(manager.reservedSessionIDs.isEmpty)
        #expect(try manager.reserveSessionID(in: Self.range, startingAt: id) == id + 1)
        manager.removeSession(session)
        #expect(try manager.reserveSessionID(in: Self.range, startingAt: id) == id)
    }

    @Test func whenEveryIDIsTakenTheReservationIsRefused() throws {
        var manager = ExchangeManager<String>(random: RepeatingRandom([0]))
        let small: ClosedRange<UInt16> = 0x0100...0x0102
        for _ in small { _ = try manager.reserveSessionID(in: small, startingAt: 0x0100) }
        #expect(throws: ExchangeError.noFreeSessionID) {
            try manager.reserveSessionID(in: small, startingAt: 0x0101)
        }
    }
}
