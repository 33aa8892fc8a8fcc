import MatterMessaging
import MatterPlatform
import MatterSecureChannel

extension MatterTransport {
    /// Matter Core §4.11.1.4 CloseSession: tells the peer the session is over, so it frees the session and its
    /// subscriptions at once (a device keeps only a few), then forgets it here. Best effort: the message is not
    /// waited on, and a peer that misses it drops the session once its reports go unanswered.
    public func closeSession(_ session: SessionHandle) async {
        if let exchange = try? openExchange(on: session) {
            let report = StatusReport(generalCode: .success, secureChannelCode: .closeSession)
            try? send(
                ExchangeMessage(
                    protocolID: .secureChannel, opcode: SecureChannelOpcode.statusReport.rawValue,
                    payload: report.encode()),
                on: exchange, reliably: false)
            close(exchange)
        }
        removeSession(session)
    }
}
