// Example app: adds a Matter device through a helper process sharing the app group.
//
//   example-add-device-app --app-group GROUP --helper PATH [--interface NAME] [--paa-trust-store DIR] CODE ROOM NAME
//
// It configures the app group, prepares a commissioning session on the home's structure, performs the add-device
// request through the helper executable, and completes the session (or cancels it when anything failed).
import Foundation
import HomeAPI

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

var options: [String: String] = [:]
var positional: [String] = []
var words = CommandLine.arguments.dropFirst()[...]
while let word = words.popFirst() {
    if word.hasPrefix("--") {
        guard let value = words.popFirst() else { fail("\(word) needs a value") }
        options[String(word.dropFirst(2))] = value
    } else {
        positional.append(word)
    }
}
guard let appGroup = options["app-group"], let helper = options["helper"], positional.count == 3 else {
    fail(
        "usage: example-add-device-app --app-group GROUP --helper PATH [--interface NAME] [--paa-trust-store DIR] CODE ROOM NAME"
    )
}

Home.configure { configuration in
    configuration.sharedAppGroup = appGroup
    configuration.networkInterfaces = options["interface"].map { [$0] } ?? []
    configuration.paaTrustStore = options["paa-trust-store"]
}
do {
    let home = try await Home.connect()
    guard let structure = try await home.structures().list().first else { fail("the home has no structure") }
    let request = MatterAddDeviceRequest(
        topology: .init(ecosystemName: "Example", homes: [.init(displayName: structure.name)]),
        setupPayload: positional[0])
    try await structure.prepareForMatterCommissioning()
    do {
        try await request.perform(
            handler: MatterAddDeviceHelperProcess(executable: helper, appGroup: appGroup),
            interaction: TerminalInteraction(room: positional[1], name: positional[2]))
        for id in try structure.completeMatterCommissioning().sorted() { print(id) }
    } catch {
        structure.cancelMatterCommissioning()
        throw error
    }
} catch {
    fail("\(error)")
}
