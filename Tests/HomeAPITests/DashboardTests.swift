import Foundation
import HTTPWebSocket
import HomeHub
import MatterDiscovery
import MatterOnboarding
import MatterPlatform
import MatterTestSupport
import Testing

@testable import HomeAPI
@testable import MatterServer

/// The web dashboard as the hub serves it on the Matter-server API's listener: who may have its pages and its live
/// socket (loopback without a token, a session from the sign-in with one, its own origin for what acts), and the
/// actions its page sends, against a live light. The page itself is driven in a real browser by
/// scripts/interop-dashboard.sh.
@Suite(.timeLimit(.minutes(2))) struct DashboardTests {
    static let loopback = SocketAddress.ipv4(IPv4Address(127 << 24 | 1), port: 0)

    /// One request; the whole response as text.
    static func send(
        _ address: SocketAddress, _ method: String, _ target: String, host: String = "127.0.0.1",
        fields: [String] = [], body: String = ""
    ) async throws -> String {
        let client = try TestClient(address)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for field in fields { head += field + "\r\n" }
        if method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        client.write(Array((head + "\r\n" + body).utf8))
        return String(decoding: await client.readToEnd(), as: UTF8.self)
    }

    static func field(_ name: String, in response: String) -> String? {
        response.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func aListenerOfItsOwnServesTheDashboardAlone() async throws {
        try await withHome { home, _, _ in
            let api = try home.serveMatterServerAPI(listeningOn: [], dashboardAddresses: [Self.loopback])
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            #expect(try await Self.send(address, "GET", "/").hasPrefix("HTTP/1.1 200 "))
            #expect(try await Self.send(address, "GET", "/info").hasPrefix("HTTP/1.1 404 "))
            let client = try TestClient(address)
            #expect(await client.openWebSocket().hasPrefix("HTTP/1.1 404 "), "no Matter-server API there")
            #expect(throws: HomeError.self) {
                try home.serveMatterServerAPI(listeningOn: [], dashboardAddresses: [.ipv4(IPv4Address(0), port: 0)])
            }
        }
    }

    @Test func withoutATokenItServesLoopbackOnlyAndItsOwnPagesSocket() async throws {
        try await withHome { home, _, _ in
            let api = try home.serveMatterServerAPI(listeningOn: [Self.loopback])
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            let page = try await Self.send(address, "GET", "/")
            #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n") && page.contains("<script src=\"/dashboard/app.js\""))
            let policy = try #require(Self.field("Content-Security-Policy", in: page))
            #expect(policy.contains("default-src 'none'") && policy.contains("connect-src 'self'"))
            #expect(policy.contains("script-src 'self';"), "no inline script, no other host")
            #expect(Self.field("X-Frame-Options", in: page) == "DENY")
            let script = try await Self.send(address, "GET", "/dashboard/app.js")
            #expect(Self.field("Content-Type", in: script) == "text/javascript; charset=utf-8")
            #expect(try await Self.send(address, "GET", "/", host: "[::1]:5580").hasPrefix("HTTP/1.1 200 "))
            #expect(try await Self.send(address, "GET", "/", host: "localhost:5580").hasPrefix("HTTP/1.1 200 "))
            // A name that resolved to loopback by someone else's hand (DNS rebinding) is not served.
            #expect(try await Self.send(address, "GET", "/", host: "evil.example:5580").hasPrefix("HTTP/1.1 403 "))
            #expect(try await Self.send(address, "GET", "/", host: "127.0.0.1.evil.example").hasPrefix("HTTP/1.1 403 "))
            #expect(try await Self.send(address, "GET", "/signin").hasPrefix("HTTP/1.1 303 "), "nothing to sign in to")
            #expect(try await Self.send(address, "GET", "/dashboard/nothing").hasPrefix("HTTP/1.1 404 "))
            #expect(try await Self.send(address, "GET", "/nothing").hasPrefix("HTTP/1.1 404 "), "only / is the page")

            // The live socket: from the page's own origin only.
            let stranger = try TestClient(address)
            let refused = await stranger.openWebSocket(
                path: "/dashboard/socket", fields: "Origin: http://evil.example\r\n")
            #expect(refused.hasPrefix("HTTP/1.1 403 "))
            let noOrigin = try TestClient(address)
            #expect(await noOrigin.openWebSocket(path: "/dashboard/socket").hasPrefix("HTTP/1.1 403 "))
            let page2 = try TestClient(address)
            let upgraded = await page2.openWebSocket(path: "/dashboard/socket", fields: "Origin: http://127.0.0.1\r\n")
            #expect(upgraded.hasPrefix("HTTP/1.1 101 "))
            #expect(
                try await page2.readText().hasPrefix(
                    #"{"kind":"welcome","signedIn":false,"nameCodePoints":60,"home":{"structures":[{"id":"#))

            // Nor a rebound name the API itself, without a token.
            #expect(try await Self.send(address, "GET", "/info", host: "evil.example:5580").hasPrefix("HTTP/1.1 403 "))
            #expect(try await Self.send(address, "GET", "/info", host: "127.0.0.1:5580").hasPrefix("HTTP/1.1 200 "))
            // Another site's page may not use the Matter-server API's socket either.
            let api2 = try TestClient(address)
            #expect(await api2.openWebSocket(fields: "Origin: http://evil.example\r\n").hasPrefix("HTTP/1.1 403 "))
        }
    }

    @Test func withATokenABrowserSignsInOnceAndKeepsASessionCookie() async throws {
        try await withHome { home, _, directory in
            let path = directory + "/token"
            let secret = "4f1c9a27e0b84d6c9e1f"
            #expect(FileManager.default.createFile(atPath: path, contents: Data((secret + "\n").utf8)))
            chmod(path, 0o600)
            let api = try home.serveMatterServerAPI(
                listeningOn: [Self.loopback], token: try MatterServerToken(contentsOf: path))
            defer { api.stop() }
            let address = try #require(api.addresses.first)
            let origin = "Origin: http://127.0.0.1"

            let page = try await Self.send(address, "GET", "/")
            #expect(page.hasPrefix("HTTP/1.1 303 ") && Self.field("Location", in: page) == "/signin")
            let signIn = try await Self.send(address, "GET", "/signin")
            #expect(
                signIn.hasPrefix("HTTP/1.1 200 ") && signIn.contains("name=\"token\"")
                    && !signIn.contains("not this hub"))
            #expect(try await Self.send(address, "GET", "/dashboard/app.css").hasPrefix("HTTP/1.1 200 "))
            #expect(try await Self.send(address, "GET", "/dashboard/app.js").hasPrefix("HTTP/1.1 303 "))

            // A wrong token: back to the sign-in, which says so; no cookie.
            let wrong = try await Self.send(address, "POST", "/signin", fields: [origin], body: "token=nope")
            #expect(
                Self.field("Location", in: wrong) == "/signin?wrong=1" && Self.field("Set-Cookie", in: wrong) == nil)
            #expect(
                try await Self.send(address, "GET", "/signin?wrong=1").contains("not this hub&#39;s token") == false)
            #expect(try await Self.send(address, "GET", "/signin?wrong=1").contains("not this hub's token"))
            // The right one from another site's page: refused.
            let forged = try await Self.send(
                address, "POST", "/signin", fields: ["Origin: http://evil.example"], body: "token=\(secret)")
            #expect(forged.hasPrefix("HTTP/1.1 403 "))
            // The right one: a session cookie no script reads and no other site sends.
            let signedIn = try await Self.send(address, "POST", "/signin", fields: [origin], body: "token=\(secret)")
            #expect(Self.field("Location", in: signedIn) == "/")
            let cookie = try #require(Self.field("Set-Cookie", in: signedIn))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
            let session = try #require(cookie.split(separator: ";").first.map(String.init))
            #expect(!session.contains(secret), "the token is not the session")

            #expect(try await Self.send(address, "GET", "/", fields: ["Cookie: \(session)"]).hasPrefix("HTTP/1.1 200 "))
            let socket = try TestClient(address)
            let upgraded = await socket.openWebSocket(
                path: "/dashboard/socket", fields: "\(origin)\r\nCookie: \(session)\r\n")
            #expect(upgraded.hasPrefix("HTTP/1.1 101 "))
            let unsigned = try TestClient(address)
            #expect(
                await unsigned.openWebSocket(path: "/dashboard/socket", fields: "\(origin)\r\n").hasPrefix(
                    "HTTP/1.1 401 "))
            // From another address, without the session: the sign-in; the live socket refused.
            let elsewhere = try TestClient(address, from: IPv4Address(127 << 24 | 2))
            elsewhere.write(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(String(decoding: await elsewhere.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 303 "))
            let elsewhereSocket = try TestClient(address, from: IPv4Address(127 << 24 | 2))
            #expect(
                await elsewhereSocket.openWebSocket(path: "/dashboard/socket", fields: "\(origin)\r\n")
                    .hasPrefix("HTTP/1.1 401 "))
            // The API's token in a URL opens no page: only the session does.
            #expect(try await Self.send(address, "GET", "/?token=\(secret)").hasPrefix("HTTP/1.1 303 "))

            _ = try await socket.readText()  // welcome
            socket.sendText(#"{"id": 1, "action": "status"}"#)
            #expect(try await socket.readText().hasPrefix(#"{"kind":"reply","id":1,"#))
            // Signing out ends the session on the hub, not only in the browser: a page still open acts no more.
            let out = try await Self.send(address, "POST", "/signout", fields: [origin, "Cookie: \(session)"])
            socket.sendText(#"{"id": 2, "action": "status"}"#)
            #expect(
                try await socket.readText()
                    == #"{"kind":"failure","id":2,"message":"This browser is signed out: sign in again."}"#)
            #expect(out.hasPrefix("HTTP/1.1 303 ") && Self.field("Set-Cookie", in: out)?.contains("Max-Age=0") == true)
            #expect(try await Self.send(address, "GET", "/", fields: ["Cookie: \(session)"]).hasPrefix("HTTP/1.1 303 "))

            // Five wrong tokens from one host: its sixth try is refused, the right token too; another host signs in.
            func trySignIn(_ token: String, from host: UInt32) async throws -> String {
                let client = try TestClient(address, from: IPv4Address(host))
                let body = "token=\(token)"
                client.write(
                    Array(
                        ("POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\n\(origin)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                            + body).utf8))
                return String(decoding: await client.readToEnd(), as: UTF8.self)
            }
            let guesser: UInt32 = 127 << 24 | 4
            for guess in 0..<5 {
                #expect(
                    Self.field("Location", in: try await trySignIn("guess\(guess)", from: guesser)) == "/signin?wrong=1"
                )
            }
            #expect(try await trySignIn(secret, from: guesser).hasPrefix("HTTP/1.1 429 "))
            #expect(Self.field("Location", in: try await trySignIn(secret, from: 127 << 24 | 5)) == "/")
        }
    }

    /// A page may have `DashboardLimits.actionsAtOnce` actions at work; one more is told so at once, and the rest
    /// still answer.
    @Test func actionsPastTheBoundAtOnceAreRefused() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, device in
            try await home.hub.followEveryNode()
            let api = try home.serveMatterServerAPI(listeningOn: [Self.loopback])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket(path: "/dashboard/socket", fields: "Origin: http://127.0.0.1\r\n")
            let welcome = try await client.readText()
            let id = try #require(welcome.firstMatch(of: /"id":"([0-9A-F]{16}-1)"/)?.1).description
            // The light gone: a toggle waits for its session.
            await device.shutdown()
            let bound = DashboardLimits.actionsAtOnce
            for number in 1...bound + 1 {
                client.sendText(#"{"id":\#(number),"action":"toggle","device":"\#(id)"}"#)
            }
            var frame = ""
            while !frame.hasPrefix(#"{"kind":"failure""#) { frame = try await client.readText() }
            #expect(frame.hasPrefix(#"{"kind":"failure","id":\#(bound + 1),"#), "\(frame)")
            #expect(frame.contains("Too many actions at work at once"), "\(frame)")
        }
    }

    @Test func thePagesActionsReachTheLightAndItsReportsComeBack() async throws {
        try await DeviceTypeControllerLiveTests.withLiveLight { home, device in
            try await home.hub.followEveryNode()
            let api = try home.serveMatterServerAPI(listeningOn: [Self.loopback])
            defer { api.stop() }
            let client = try TestClient(try #require(api.addresses.first))
            await client.openWebSocket(path: "/dashboard/socket", fields: "Origin: http://127.0.0.1\r\n")
            let welcome = try await client.readText()
            let id = try #require(welcome.firstMatch(of: /"id":"([0-9A-F]{16}-1)"/)?.1).description
            #expect(welcome.contains(#""name":"lamp""#) && welcome.contains(#"{"kind":"onOff","on":false}"#))

            /// The reply to the action numbered `number`, past the frames that come before it.
            func answer(_ number: Int, _ action: String) async throws -> String {
                client.sendText(action)
                while true {
                    let frame = try await client.readText()
                    if frame.contains(#""id":\#(number),"#) || frame.contains(#""id":\#(number)}"#) { return frame }
                }
            }
            #expect(
                try await answer(1, #"{"id":1,"action":"toggle","device":"\#(id)"}"#)
                    == #"{"kind":"reply","id":1,"result":null}"#)
            // The light's own report, through the hub's subscription, is what the page redraws from.
            var update = ""
            while !update.contains(#"{"kind":"onOff","on":true}"#) { update = try await client.readText() }
            #expect(update.hasPrefix(#"{"kind":"devices","devices":[{"id":"\#(id)""#))

            let long = String(repeating: "é", count: 70)
            let renamed = try await answer(2, #"{"id":2,"action":"rename","device":"\#(id)","name":"\#(long)"}"#)
            #expect(renamed == #"{"kind":"reply","id":2,"result":"\#(String(repeating: "é", count: 60))"}"#)
            let tooBright = try await answer(3, #"{"id":3,"action":"level","device":"\#(id)","level":300}"#)
            #expect(tooBright == #"{"kind":"failure","id":3,"message":"level 300 is out of range: 0 to 254"}"#)
            let nowhere = try await answer(4, #"{"id":4,"action":"toggle","device":"0000000000000001-1"}"#)
            #expect(nowhere.contains(#""kind":"failure""#) && nowhere.contains("no device 0000000000000001-1"))
            let unknown = try await answer(5, #"{"id":5,"action":"launch"}"#)
            #expect(unknown == #"{"kind":"failure","id":5,"message":"the dashboard has no action \"launch\""}"#)
            client.sendText("not json")
            #expect(try await client.readText().contains("an action is a JSON object"))

            // Adding a device: a code that says Bluetooth LE only, with no proxy or adapter here, is refused saying
            // so; a code that is no code, too.
            let fresh = try SetupPayload(
                vendorID: 0xFFF1, productID: 0x8000, discoveryCapabilities: [.ble], discriminator: .long(3840),
                passcode: 20_202_021
            ).qrCode()
            let unreachable = try await answer(10, #"{"id":10,"action":"commission","code":"\#(fresh)"}"#)
            #expect(unreachable.contains(#""kind":"failure""#) && unreachable.contains("no Bluetooth is here"))
            let garbage = try await answer(11, #"{"id":11,"action":"commission","code":"12345"}"#)
            #expect(garbage.contains(#""kind":"failure""#) && garbage.contains("is no Matter setup code"))
            // Its firmware: the version it runs, and no image in the hub's folder.
            let firmware = try await answer(12, #"{"id":12,"action":"firmware","device":"\#(id)"}"#)
            #expect(
                firmware.hasPrefix(#"{"kind":"reply","id":12,"result":{"running":""#)
                    && firmware.contains(#""available":null"#))
            #expect(try await answer(13, #"{"id":13,"action":"networks"}"#) == #"{"kind":"reply","id":13,"result":[]}"#)

            // The forms of a device's page: its commands from the data model, sent back by name and checked.
            let commands = try await answer(6, #"{"id":6,"action":"commands","device":"\#(id)"}"#)
            #expect(
                commands.hasPrefix(
                    #"{"kind":"reply","id":6,"result":[{"id":3,"name":"Identify","commands":[{"name":"Identify","timed":false,"fields":[{"name":"identifyTime","kind":"unsigned","optional":false,"nullable":false,"min":0,"max":65535}]}"#
                ))
            #expect(commands.contains(#""name":"OnOff","commands":[{"name":"Off","timed":false,"fields":[]}"#))
            let off = try await answer(
                7, #"{"id":7,"action":"invoke","device":"\#(id)","cluster":6,"command":"Off","fields":{}}"#)
            #expect(off == #"{"kind":"reply","id":7,"result":null}"#)
            while !update.contains(#"{"kind":"onOff","on":false}"#) { update = try await client.readText() }
            let effect = try await answer(
                8,
                #"{"id":8,"action":"invoke","device":"\#(id)","cluster":3,"command":"TriggerEffect","fields":{"effectIdentifier":77,"effectVariant":0}}"#
            )
            #expect(
                effect.contains(#""kind":"failure""#) && effect.contains("effectIdentifier"),
                "an enum value it does not know")

            // A new room, the light moved into it, the ecosystems that control it, and its removal from the home.
            let room = try await answer(14, #"{"id":14,"action":"createRoom","name":"Study"}"#)
            let roomID = try #require(room.firstMatch(of: /"result":"([^"]+)"/)?.1).description
            let moved = try await answer(15, #"{"id":15,"action":"move","device":"\#(id)","room":"\#(roomID)"}"#)
            #expect(moved.contains(#""kind":"reply""#))
            #expect(home.context.model.snapshot.devices.values.first?.first?.roomName == "Study")
            // Without a token a loopback page shares nothing and administers nothing (home serve --api-grant): the
            // fabrics, and the same by hand through a command's form, are refused before anything is sent.
            let fabrics = try await answer(16, #"{"id":16,"action":"fabrics","device":"\#(id)"}"#)
            #expect(fabrics.hasPrefix(#"{"kind":"failure","id":16,"#) && fabrics.contains("takes administer"))
            let ours = try await answer(17, #"{"id":17,"action":"removeFabric","device":"\#(id)","index":1}"#)
            #expect(ours.contains(#""kind":"failure""#) && ours.contains("takes administer"), "\(ours)")
            let window = try await answer(
                19,
                #"{"id":19,"action":"invoke","device":"\#(id)","cluster":60,"command":"OpenBasicCommissioningWindow","fields":{"commissioningTimeout":180}}"#
            )
            #expect(window.contains(#""kind":"failure""#) && window.contains("takes administer"), "\(window)")
            #expect(await !device.isCommissioningWindowOpen)
            #expect(await device.fabrics.count == 1)
            let removed = try await answer(18, #"{"id":18,"action":"remove","device":"\#(id)"}"#)
            #expect(removed == #"{"kind":"reply","id":18,"result":null}"#)
            #expect(home.context.model.snapshot.devices.isEmpty)
        }
    }
}
