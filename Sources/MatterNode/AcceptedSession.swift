import MatterInteraction
import MatterMessaging
import MatterSecureChannel

/// A secure session the device accepted, as access control and the commissioning clusters see it.
struct AcceptedSession: Sendable {
    var isPASE: Bool
    /// 0 for a PASE session until AddNOC binds it to the new fabric.
    var fabricIndex: UInt8
    /// The peer's operational node ID over CASE.
    var peerNodeID: UInt64
    var localSessionID: UInt16
    var attestationChallenge: [UInt8]
    /// When the peer last asked something on it: the least recently used goes first when a fabric has too many.
    var lastActive: Instant

    /// Who asks, for access control (§6.6.2): a PASE peer is an implicit administrator while commissioning is possible.
    func accessContext(commissioning: Bool) -> AccessContext {
        isPASE
            ? AccessContext(
                fabricIndex: fabricIndex, subject: AccessContext.paseSubject, authMode: .pase,
                isCommissioning: commissioning)
            : AccessContext(fabricIndex: fabricIndex, subject: peerNodeID, authMode: .case)
    }
}

/// PASE and CASE responders, as the device drives them.
protocol SessionEstablishmentResponder: Sendable {
    mutating func receive(opcode: UInt8, payload: [UInt8]) -> [SessionEstablishmentAction]
}

extension PASEResponder: SessionEstablishmentResponder {}
extension CASEResponder: SessionEstablishmentResponder {}
