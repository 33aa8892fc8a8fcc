import MatterMessaging

/// Shorthands for reading the actions of an `ExchangeManager` in tests.
extension Array {
    func datagrams<Address>() -> [[UInt8]] where Element == ExchangeManager<Address>.Action {
        compactMap { action in
            if case let .send(datagram, _) = action { return datagram }
            return nil
        }
    }

    func events<Address>() -> [ExchangeEvent] where Element == ExchangeManager<Address>.Action {
        compactMap { action in
            if case let .deliver(event) = action { return event }
            return nil
        }
    }

    func failures<Address>() -> [ExchangeError] where Element == ExchangeManager<Address>.Action {
        compactMap { action in
            if case let .exchangeFailed(_, error) = action { return error }
            return nil
        }
    }
}

func milliseconds(_ value: Double) -> Instant {
    Instant(nanoseconds: UInt64((value * 1_000_000).rounded()))
}

let echoProtocol = ProtocolID(rawValue: 0x00FF)
let pbkdfParamRequest = ExchangeMessage(
    protocolID: .secureChannel, opcode: SecureChannelOpcode.pbkdfParamRequest.rawValue, payload: [0x15, 0x18])
