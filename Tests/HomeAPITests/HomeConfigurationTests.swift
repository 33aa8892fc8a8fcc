import Foundation
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct HomeConfigurationTests {
    @Test func anAppGroupNamesADirectoryUnderTheDataDirectory() throws {
        let configuration = Home.Configuration(sharedAppGroup: "group.example.home")
        #expect(
            try configuration.statePath(environment: ["XDG_DATA_HOME": "/data"])
                == "/data/swift-home/app-groups/group.example.home")
        #expect(
            try configuration.statePath(environment: ["HOME": "/home/ada"])
                == "/home/ada/.local/share/swift-home/app-groups/group.example.home")
        #expect(try Home.Configuration().statePath(environment: [:]) == nil)
        #expect(try Home.Configuration(stateDirectory: "/srv/hub").statePath(environment: [:]) == "/srv/hub")
    }

    @Test(arguments: [
        "", "group..home", ".group", "group.", "../etc", "group/home", "group home", "gr\u{F6}up.home",
        String(repeating: "a", count: 256),
    ])
    func aMalformedAppGroupIsAnInvalidArgument(_ group: String) {
        #expect {
            try Home.Configuration(sharedAppGroup: group).statePath(environment: ["HOME": "/home/ada"])
        } throws: { error in
            (error as? HomeError)?.code == .invalidArgument
                && (error as? HomeError)?.message.contains("reverse-DNS") == true
        }
    }

    @Test func anAppGroupAndAStateDirectoryTogetherAreRefused() {
        #expect(throws: HomeError(.invalidArgument, "set either sharedAppGroup or stateDirectory, not both")) {
            try Home.Configuration(sharedAppGroup: "group.example.home", stateDirectory: "/srv/hub").statePath(
                environment: [:])
        }
    }

    @Test func connectUsesTheConfiguredDirectoryCreatedOwnerOnly() async throws {
        try await withHome { _, _, path in
            let groupDirectory = path + "/app-groups/group.example.home"
            Home.configure { $0.stateDirectory = groupDirectory }
            defer { Home.configure { $0 = Home.Configuration() } }
            let home = try await Home.connect()
            #expect(try await home.structures().list().map(\.name) == ["Home"])
            var status = stat()
            #expect(stat(groupDirectory, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o700)
            #expect(FileManager.default.fileExists(atPath: groupDirectory + "/hub.sqlite"))
        }
    }
}
