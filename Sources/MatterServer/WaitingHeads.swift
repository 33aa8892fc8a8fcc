import HTTPWebSocket
import MatterPlatform
import MatterTime
import Synchronization

/// The listener's connections still sending their request head, held to `HTTPHeadGate`'s limits on a clock: a
/// connection refused by the gate is answered 503 and closed at once; one out of time, 408 and closed. Home
/// Assistant's WebSocket, a BLE proxy's, anything whose head is whole, has left and is never touched.
final class WaitingHeads: Sendable {
    private struct State {
        var gate: HTTPHeadGate<ObjectIdentifier, [UInt8]>
        var connections: [ObjectIdentifier: StreamConnection] = [:]
        var timer = DeadlineTimer()
    }

    private let clock: any DriverClock
    private let state: Mutex<State>

    init(clock: any DriverClock, limits: HTTPHeadGate<ObjectIdentifier, [UInt8]>.Limits) {
        self.clock = clock
        state = Mutex(State(gate: HTTPHeadGate(limits: limits)))
    }

    /// Connections still sending their head.
    var count: Int { state.withLock { $0.gate.count } }

    /// A connection just accepted: true when it may go on sending its head; false when it was refused (it is told so
    /// and closed).
    func admit(_ connection: StreamConnection) -> Bool {
        // A peer without an address (never on TCP) counts as one peer.
        let peer = connection.remoteAddress?.hostPrefix ?? []
        let id = ObjectIdentifier(connection)
        let admission = state.withLock { state in
            let admission = state.gate.admit(id, from: peer, at: clock.now)
            if case .admitted = admission {
                state.connections[id] = connection
                armTimer(&state)
            }
            return admission
        }
        guard case .refused(let error) = admission else { return true }
        connection.send(error.response.bytes)
        connection.closeAfterWrites()
        return false
    }

    /// The connection's head is whole, or it closed.
    func leave(_ id: ObjectIdentifier) {
        state.withLock { state in
            state.gate.leave(id)
            state.connections[id] = nil
            armTimer(&state)
        }
    }

    private func armTimer(_ state: inout State) {
        guard let deadline = state.gate.nextDeadline else { return state.timer.cancel() }
        state.timer.arm(deadline, on: clock) { [weak self] deadline in self?.fire(deadline) }
    }

    private func fire(_ deadline: Instant) {
        let (late, error) = state.withLock { state -> ([StreamConnection], HTTPError) in
            guard state.timer.fired(deadline) else { return ([], state.gate.timeoutError) }
            let late = state.gate.expired(at: clock.now).compactMap { state.connections.removeValue(forKey: $0) }
            armTimer(&state)
            return (late, state.gate.timeoutError)
        }
        for connection in late {
            connection.send(error.response.bytes)
            connection.closeAfterWrites()
        }
    }
}
