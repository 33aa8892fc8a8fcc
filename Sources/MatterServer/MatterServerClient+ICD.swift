import Foundation
import HomeEngine
import HomeHub
import HubWire

/// matterjs-server's ICD commands (`docs/websockets_api.md`, "ICD Management"): the hub as check-in client of a
/// sleeping device. Each answers IcdStateData; a registration refused for other administrators is error 100.
extension MatterServerClient {
    func checkIns(_ id: String, _ nodeID: UInt64, _ action: ManageCheckIns.Action) {
        guard engine.model.snapshot.devices[nodeID] != nil else { return send(Self.unknownNode(id, nodeID)) }
        work { [self] in
            do throws(HomeError) {
                switch try await engine.perform(ManageCheckIns(nodeID: nodeID, action: action), caller: caller) {
                case .state(let state):
                    // resync_icd answers null (matterjs-server returns nothing); the others the state.
                    send(Self.reply(id, action == .resync ? "null" : Self.icdState(state).rendered))
                case .otherAdministrators(let vendors):
                    let details = JSONValue.object([
                        (
                            "message",
                            .string(CheckInRegistrationError.otherAdministrators(vendorIDs: vendors).description)
                        ),
                        ("admin_vendor_ids", .array(vendors.map { .unsigned(UInt64($0)) })),
                    ])
                    send(Self.error(id, .icdMultiAdmin, details.rendered))
                }
            } catch {
                send(Self.error(id, MatterServerError(error)))
            }
        }
    }

    /// IcdStateData: without the cluster, `supported` false and the rest false or null.
    static func icdState(_ state: CheckInState) -> JSONValue {
        func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }
        return .object([
            ("supported", .bool(state.supported)), ("lit_supported", .bool(state.longIdleTimeSupported)),
            ("registered", .bool(state.registered)),
            ("operating_mode", state.operatingMode.map(JSONValue.string) ?? .null), ("awake", optional(state.awake)),
            ("available", optional(state.available)),
            (
                "next_expected_checkin",
                state.nextExpectedCheckIn.map { .unsigned(UInt64(max(0, $0.timeIntervalSince1970 * 1000))) } ?? .null
            ),
        ])
    }
}

/// `register_icd`'s arguments.
struct RegisterICDArguments: Decodable, Sendable {
    let nodeID: UInt64
    let allowMultiAdmin: Bool?
    let ignoredVendors: [UInt16]?

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case allowMultiAdmin = "allow_multi_admin"
        case ignoredVendors = "ignored_vendors"
    }
}

/// `unregister_icd`'s arguments.
struct UnregisterICDArguments: Decodable, Sendable {
    let nodeID: UInt64
    let force: Bool?

    private enum CodingKeys: String, CodingKey {
        case nodeID = "node_id"
        case force
    }
}
