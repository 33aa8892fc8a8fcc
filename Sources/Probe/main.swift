// swift-home-probe <port> <passcode>: PASE with the commissionable device at [::1]:<port>, then ArmFailSafe(60) and
// the node interview over that session; prints one JSON object. For scripts/interop-pase-im.sh.
import Foundation
import HomeHub
import MatterDiscovery
import MatterPlatform

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let port = UInt16(arguments.first ?? ""), let passcode = UInt32(arguments.last ?? "") else {
    FileHandle.standardError.write(Data("usage: swift-home-probe <port> <passcode>\n".utf8))
    exit(2)
}

do {
    let transport = try MatterTransport()
    let device = SocketAddress.ipv6(IPv6Address(0, 1), port: port)
    let pase = try await SessionEstablishment.pase(with: device, passcode: passcode, over: transport)
    let client = InteractionClient(transport: transport, session: pase.session, peerParameters: pase.established.mrpParameters)
    let armed = try await client.invoke(ArmFailSafe(expiryLengthSeconds: 60, breadcrumb: 1), endpoint: 0)
    let node = try await NodeInterview.interview(client)
    let result: [String: Any] = [
        "armFailSafe": armed.errorCode.description,
        "vendorName": node.vendorName,
        "vendorID": Int(node.vendorID),
        "productName": node.productName,
        "productID": Int(node.productID),
        "serialNumber": node.serialNumber ?? NSNull(),
        "endpoints": node.endpoints.map { endpoint in
            [
                "endpoint": Int(endpoint.endpoint),
                "deviceTypes": endpoint.deviceTypes.map { Int($0.deviceType) },
                "serverClusters": endpoint.serverClusters.map { Int($0) },
                "parts": endpoint.parts.map { Int($0) },
            ] as [String: Any]
        },
    ]
    let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    print(String(decoding: json, as: UTF8.self))
    await transport.shutdown()
} catch {
    FileHandle.standardError.write(Data("probe failed: \(error)\n".utf8))
    exit(1)
}
