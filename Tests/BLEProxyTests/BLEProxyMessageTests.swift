import BLEProxy
import Foundation
import MatterPlatform
import Testing

/// The wire of docs/ble-proxy-protocol.md (version 1): its examples read as the text writes them.
@Suite struct BLEProxyMessageTests {
    @Test func aBinaryFrameIsTheOpcodeTheBigEndianHandleAndThePayload() {
        let frame = BLEProxyBinaryFrame(.writeData, connectionHandle: 0x0102, payload: [0xAA, 0xBB])
        #expect(frame.bytes == [0x01, 0x01, 0x02, 0xAA, 0xBB])
        #expect(
            BLEProxyBinaryFrame([0x02, 0x00, 0x01])
                == BLEProxyBinaryFrame(.notification, connectionHandle: 1, payload: []))
        #expect(BLEProxyBinaryFrame([0x02, 0x00]) == nil, "shorter than 3 bytes")
        #expect(BLEProxyBinaryFrame([0x07, 0x00, 0x01]) == nil, "an unknown opcode")
    }

    @Test func theDocumentsMessagesAreRead() {
        #expect(BLEProxyClientMessage.decode(#"{"type": "hello", "version": 1}"#) == .hello(version: 1))
        #expect(
            BLEProxyClientMessage.decode(#"{"id": 3, "success": true, "result": {"connection_handle": 1, "mtu": 247}}"#)
                == .response(id: 3, .success(BLEProxyFields(connectionHandle: 1, mtu: 247))))
        #expect(
            BLEProxyClientMessage.decode(
                #"{"id": 4, "success": false, "error": "device_not_found", "message": "gone"}"#)
                == .response(id: 4, .failure(BLEProxyFailure(code: "device_not_found", message: "gone"))))
        let discovered = BLEProxyClientMessage.decode(
            #"{"event": "device_discovered", "data": {"address": "AA:BB:CC:DD:EE:FF", "rssi": -60, "connectable": true, "service_data": {"0000FFF6-0000-1000-8000-00805F9B34FB": "AAAPoff/AYA="}}}"#
        )
        guard case .event("device_discovered", let data) = discovered else {
            Issue.record("not read: \(String(describing: discovered))")
            return
        }
        #expect(data.address == "AA:BB:CC:DD:EE:FF" && data.rssi == -60 && data.connectable == true)
        #expect(data.serviceData?["0000FFF6-0000-1000-8000-00805F9B34FB"] == "AAAPoff/AYA=")
        #expect(BLEProxyClientMessage.decode(#"{"neither": 1}"#) == nil)
        #expect(BLEProxyClientMessage.decode("not json") == nil)
    }

    @Test(arguments: [
        BLEProxyCommand.startScan(serviceUUIDs: ["fff6"], allowDuplicates: true), .stopScan,
        .connect(address: "AA:BB:CC:DD:EE:FF", timeoutMilliseconds: 30_000), .disconnect(handle: 1),
        .discoverServices(handle: 1), .discoverCharacteristics(handle: 1, serviceUUID: "fff6"),
        .readCharacteristic(handle: 1, uuid: "c3"),
        .writeCharacteristic(handle: 2, uuid: "c1", value: [1, 2], withResponse: true),
        .subscribeCharacteristic(handle: 1, uuid: "c2"),
        .writeAndSubscribe(
            handle: 1, writeUUID: "c1", value: [0x65, 0x6C, 0x04], withResponse: true, subscribeUUID: "c2"),
        .unsubscribeCharacteristic(handle: 1, uuid: "c2"), .requestMTU(handle: 1, mtu: 247),
    ])
    func everyCommandReadsBackAsItWasWritten(command: BLEProxyCommand) throws {
        let text = command.encoded(id: 9)
        let decoded = try #require(BLEProxyCommand.decode(text))
        #expect(decoded.id == 9)
        #expect(decoded.command == command)
    }

    @Test func writeAndSubscribeCarriesItsValueInBase64WithSnakeCaseKeys() throws {
        let text = BLEProxyCommand.writeAndSubscribe(
            handle: 1, writeUUID: "C1", value: [0x65, 0x6C], withResponse: true, subscribeUUID: "C2"
        ).encoded(id: 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["command"] as? String == "write_and_subscribe")
        let args = try #require(object["args"] as? [String: Any])
        #expect(args["connection_handle"] as? Int == 1)
        #expect(args["write_value"] as? String == "ZWw=")
        #expect(args["write_response"] as? Bool == true)
        #expect(args["subscribe_uuid"] as? String == "C2")
    }

    @Test func aCommandMissingWhatItNeedsIsNoCommandAndAnUnknownOneIsNamed() {
        #expect(BLEProxyCommand.decode(#"{"id": 1, "command": "connect"}"#) == nil)
        #expect(
            BLEProxyCommand.decode(
                #"{"id": 1, "command": "write_characteristic", "args": {"connection_handle": 1, "characteristic_uuid": "x", "value": "%%"}}"#
            ) == nil)
        #expect(BLEProxyCommand.decode(#"{"id": 1, "command": "pair"}"#)?.command == .other("pair"))
    }

    @Test(arguments: [
        ("fff6", "0000FFF6-0000-1000-8000-00805F9B34FB"), ("FFF6", "0000FFF6-0000-1000-8000-00805F9B34FB"),
        ("0000fff6-0000-1000-8000-00805f9b34fb", "0000FFF6-0000-1000-8000-00805F9B34FB"),
        ("18ee2ef5263d4559959f4f9c429f9d11", "18EE2EF5-263D-4559-959F-4F9C429F9D11"),
    ])
    func uuidsInAnyFormCompareAlike(form: String, canonical: String) {
        #expect(BluetoothUUID.canonical(form) == canonical)
    }
}
