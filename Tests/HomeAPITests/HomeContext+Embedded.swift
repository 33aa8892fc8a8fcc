import HomeHub
import HomeRecords

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// The tests' way into the embedded hub of a `Home` they opened themselves (never attached to another process).
extension HomeContext {
    var local: HubEngine {
        guard let local = hub.engine else { preconditionFailure("the test's home is attached to a hub") }
        return local
    }
    var store: HubStore { local.store }
}
