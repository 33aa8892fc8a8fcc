// swift-tools-version: 6.0
import PackageDescription

// Layers (see ../shared/DESIGN.md): dependencies point down only.
//   HomeCommandLine / home      the CLI
//   HomeAPI                     the app library: values, queries, traits, the add-device flow, over a hub engine
//   HomeEngine                  the hub of a home in a process: its operations, live nodes, its socket and clients
//   HubWire                     the home socket's frames, untyped JSON, HomeError, reply values (values only)
//   HomeHub                     fabric authority, commissioner, node registry, store
//   HomeRecords                 the home's records, its snapshot and changes (values only)
//   MatterDevice                the virtual device: its application clusters, simulation, state file and farm
//   MatterNode                  a process's own Matter node: fabrics, sessions it accepts, the standard clusters
//   MatterPlatform              sockets, mDNS, SQLite, the transport (the only layer doing I/O)
//   MatterInteraction           Interaction Model messages and transactions (sans-IO)
//   MatterSecureChannel         PASE, CASE, StatusReport (sans-IO)
//   MatterMessaging             message layer (sans-IO)
//   MatterDiscovery             DNS-SD records and queries (sans-IO)
//   HTTPWebSocket               HTTP/1.1 request heads and WebSocket (RFC 6455) for the Matter-server API (sans-IO)
//   MatterTime                  the one instant type and the drivers' clock (system or manual)
//   MatterTLV, MatterOnboarding, MatterCertificates, MatterCrypto   codecs and crypto
let package = Package(
    name: "swift-home",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "home", targets: ["home"]),
        .executable(name: "swift-home-bench", targets: ["Benchmarks"]),
        .executable(name: "swift-home-advertise", targets: ["Advertise"]),
        .library(name: "MatterTLV", targets: ["MatterTLV"]),
        .library(name: "MatterOnboarding", targets: ["MatterOnboarding"]),
        .library(name: "MatterCrypto", targets: ["MatterCrypto"]),
        .library(name: "MatterMessaging", targets: ["MatterMessaging"]),
        .library(name: "MatterBTP", targets: ["MatterBTP"]),
        .library(name: "MatterOTA", targets: ["MatterOTA"]),
        .library(name: "MatterFuzzing", targets: ["MatterFuzzing"]),
        .library(name: "MatterCertificates", targets: ["MatterCertificates"]),
        .library(name: "MatterDiscovery", targets: ["MatterDiscovery"]),
        .library(name: "MatterDataModel", targets: ["MatterDataModel"]),
        .library(name: "HomeAPI", targets: ["HomeAPI"]),
        // The home socket's wire types alone: the hub-protocol fuzz target builds on them without a hub.
        .library(name: "HubWire", targets: ["HubWire"]),
        .executable(name: "datamodel-generator", targets: ["DataModelGenerator"]),
        .executable(name: "matter-device", targets: ["MatterDeviceTool"]),
    ],
    targets: [
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CTLS", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        // libc's epoll (sys/epoll.h), which the Glibc module leaves out.
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Time for every layer: the one instant type, and the clock drivers take (the system's, or a manual one).
        .target(name: "MatterTime"),
        .target(name: "MatterTLV"),
        .target(name: "MatterOnboarding", dependencies: ["MatterTLV"]),
        .target(name: "MatterCrypto", dependencies: ["COpenSSL"]),
        .target(name: "MatterMessaging", dependencies: ["MatterCrypto", "MatterTime"]),
        .target(name: "MatterBTP", dependencies: ["MatterTime"]),
        .target(name: "MatterSecureChannel", dependencies: ["MatterMessaging", "MatterTLV", "MatterCrypto"]),
        .target(name: "MatterInteraction", dependencies: ["MatterTLV", "MatterMessaging"]),
        .target(name: "MatterCertificates", dependencies: ["MatterTLV", "MatterCrypto"]),
        // Bulk Data Exchange (Matter Core §11.22), sans-IO.
        .target(name: "MatterBDX", dependencies: ["MatterTime"]),
        // OTA software image files (Matter Core §11.21.2): read in two phases, checked, and made.
        .target(name: "MatterOTA", dependencies: ["MatterTLV", "MatterCrypto"]),
        .target(name: "MatterDiscovery", dependencies: ["MatterTime"]),
        // The entries of the libFuzzer targets in Fuzz/ (built apart by scripts/fuzz.sh), replayed by the tests.
        .target(name: "MatterFuzzing", dependencies: [
            "HTTPWebSocket",
            "MatterTLV", "MatterOnboarding", "MatterMessaging", "MatterCertificates", "MatterDiscovery", "MatterInteraction",
            "MatterSecureChannel", "MatterCrypto", "MatterNode", "MatterDevice", "HubWire", "HomeEngine", "MatterServer",
        ]),
        // Clusters and device types generated from the Matter data model (Generated/ is datamodel-generator output).
        .target(name: "MatterDataModel", dependencies: ["MatterTLV"]),
        .target(name: "HTTPWebSocket", dependencies: ["MatterCrypto", "MatterTime"]),
        // The runtime's HTTP(S) GET (TLS through OpenSSL's libssl): the DCL's records and firmware images.
        .target(name: "HTTPClient", dependencies: ["CTLS", "HTTPWebSocket", "MatterPlatform"]),
        .target(name: "OpenThreadREST", dependencies: ["HTTPClient", "MatterDiscovery", "MatterTime"]),
        // A local Bluetooth adapter through BlueZ, over D-Bus (sd-bus): the runtime's D-Bus, and the central on it.
        .target(name: "BlueZ", dependencies: ["CSystemd", "MatterBTP", "MatterPlatform"]),
        // The BLE proxy protocol's two ends: the hub's central made of proxy clients, and a virtual peripheral's client.
        .target(name: "BLEProxy", dependencies: ["MatterBTP", "MatterPlatform", "MatterTime", "HTTPWebSocket", "MatterCrypto", "MatterDiscovery"]),
        // Development-time tool: Matter IDL and device-type XML in, Swift out (see scripts/generate-datamodel.sh).
        .executableTarget(name: "DataModelGenerator"),
        .target(
            name: "MatterPlatform", dependencies: ["MatterBTP", "MatterDiscovery", "MatterMessaging", "MatterCrypto", "MatterTime", "CSQLite", "CLinux"]),
        // The home's values as the hub stores them, its model holds them and its protocol carries them: records,
        // the snapshot of the home and its changes.
        .target(name: "HomeRecords", dependencies: ["MatterPlatform", "MatterMessaging", "MatterInteraction", "MatterDataModel", "MatterTLV"]),
        .target(name: "HomeHub", dependencies: [
            "HomeRecords", "MatterBDX", "MatterOTA", "MatterBTP", "MatterNode", "MatterPlatform", "MatterSecureChannel", "MatterMessaging", "MatterCrypto", "MatterTLV",
            "MatterOnboarding", "MatterDiscovery", "MatterCertificates", "MatterInteraction", "MatterDataModel",
        ]),
        // The hub of a home in one process (`home serve`, or an app with no hub running): every hub operation carried out
        // in one place, the live connections, the home's local socket (served, and its client).
        // The wire types of the home's local socket (`HubProtocol`): its frames, requests and replies, and the errors
        // they carry. Values only: the fuzz entries decode them without a hub.
        .target(name: "HubWire", dependencies: ["HomeRecords", "MatterPlatform", "MatterTLV"]),
        .target(name: "HomeEngine", dependencies: [
            "BlueZ", "HubWire", "HomeRecords", "HomeHub", "MatterCertificates", "MatterCrypto", "MatterDataModel", "MatterInteraction", "MatterOnboarding",
            "HTTPClient", "MatterOTA", "MatterPlatform", "MatterTLV",
        ]),
        // The public Home API (`import HomeAPI`): structures, rooms, devices and live queries over the hub.
        .target(name: "HomeAPI", dependencies: ["HubWire", "HomeRecords", "HomeEngine", "HomeHub", "MatterCrypto", "MatterDataModel", "MatterDiscovery", "MatterInteraction", "MatterPlatform", "MatterTLV"]),
        // The hub served to other ecosystems: the Matter-server WebSocket API (python-matter-server's, Home Assistant's).
        .target(name: "MatterServer", dependencies: [
            "BLEProxy", "HubWire", "HomeRecords", "HomeEngine", "HomeHub", "HTTPWebSocket", "MatterDataModel", "MatterDiscovery", "MatterInteraction",
            "MatterNode", "MatterOnboarding", "MatterPlatform", "MatterTime", "MatterTLV", "OpenThreadREST", "MatterCrypto",
        ], resources: [
            .embedInCode("Dashboard/Assets/index.html"), .embedInCode("Dashboard/Assets/app.js"),
            .embedInCode("Dashboard/Assets/app.css"), .embedInCode("Dashboard/Assets/signin.html"),
        ]),
        .target(name: "HomeCommandLine", dependencies: ["MatterOnboarding", "MatterTLV", "MatterDiscovery", "MatterPlatform", "HomeHub", "HomeEngine", "HubWire", "HomeRecords",
                                                       "MatterDataModel", "MatterInteraction", "HomeAPI", "MatterServer", "MatterDevice", "MatterNode", "BLEProxy"]),
        .executableTarget(name: "home", dependencies: ["HomeCommandLine"]),
        // The Home API examples of the README, one file each, run against the devices of a real hub: `swift run home-examples --help`.
        .executableTarget(name: "home-examples", dependencies: ["HomeAPI"], path: "Examples/HomeExamples"),
        .executableTarget(name: "Benchmarks", dependencies: ["BLEProxy", "MatterBTP", "MatterTLV", "MatterCrypto", "MatterMessaging", "HomeHub", "MatterOnboarding", "MatterCertificates", "MatterPlatform", "MatterDiscovery", "HomeAPI", "HomeEngine", "HubWire", "HomeRecords", "MatterServer",
                                                          "MatterInteraction", "MatterDataModel", "MatterNode", "MatterDevice", "CLinux"]),
        // A process's own Matter node (the hub, a virtual device, each device of a farm): its fabrics and access
        // control, the sessions it accepts, the data model its cluster servers make and the standard ones of endpoint 0.
        .target(name: "MatterNode", dependencies: [
            "MatterBDX", "MatterPlatform", "MatterSecureChannel", "MatterInteraction", "MatterDataModel", "MatterCertificates",
            "MatterDiscovery", "MatterCrypto", "MatterTLV", "MatterMessaging",
        ]),
        // A commissionable virtual Matter device over IP: its application clusters, simulation, state file and farm.
        .target(name: "MatterDevice", dependencies: [
            "BLEProxy", "MatterBDX", "MatterOTA", "MatterBTP", "MatterNode", "MatterPlatform", "MatterSecureChannel", "MatterInteraction", "MatterDataModel", "MatterCertificates",
            "MatterDiscovery", "MatterCrypto", "MatterTLV", "MatterOnboarding", "MatterMessaging",
        ]),
        .executableTarget(name: "MatterDeviceTool", dependencies: ["MatterDevice", "MatterCrypto"]),
        // The add-device example pair: an app that prepares, performs the request through a helper process and completes,
        // and the helper that carries out the three handler calls with HomeMatterCommissioner on the shared app group.
        .executableTarget(name: "ExampleAddDeviceApp", dependencies: ["HomeAPI"], path: "Examples/AddDeviceApp"),
        .executableTarget(name: "ExampleAddDeviceHelper", dependencies: ["HomeAPI"], path: "Examples/AddDeviceHelper"),
        // Publishes one Matter advertisement by mDNS on named interfaces, for the interop scripts.
        .executableTarget(name: "Advertise", dependencies: ["MatterPlatform", "MatterDiscovery"]),

        // Seeded randomness, fuzz mutations, the simulated network and a lossy socket, shared by the tests of every layer.
        .target(name: "MatterTestSupport", dependencies: ["MatterBTP", "MatterPlatform", "MatterMessaging", "MatterDiscovery", "MatterTime", "MatterCrypto", "CLinux"], path: "Sources/MatterTestSupport"),

        .testTarget(name: "MatterTLVTests", dependencies: ["MatterTLV", "MatterTestSupport"]),
        .testTarget(name: "MatterOnboardingTests", dependencies: ["MatterOnboarding", "MatterTLV", "MatterTestSupport"]),
        .testTarget(name: "MatterCryptoTests", dependencies: ["MatterCrypto", "MatterTestSupport"]),
        .testTarget(name: "MatterMessagingTests", dependencies: ["MatterMessaging", "MatterCrypto", "MatterTestSupport"]),
        .testTarget(name: "MatterSecureChannelTests", dependencies: ["MatterSecureChannel", "MatterTLV", "MatterCrypto", "MatterTestSupport"]),
        .testTarget(name: "MatterInteractionTests", dependencies: ["MatterInteraction", "MatterTLV", "MatterTestSupport"]),
        // Vectors/ holds connectedhomeip's commissioner DUT attestation vectors, read from the source tree by the tests.
        .testTarget(name: "MatterCertificatesTests", dependencies: ["MatterCertificates", "MatterTLV", "MatterCrypto", "MatterTestSupport"],
                    exclude: ["Vectors"]),
        .testTarget(name: "MatterFuzzingTests", dependencies: ["MatterFuzzing"]),
        .testTarget(name: "MatterDiscoveryTests", dependencies: ["MatterDiscovery", "MatterTestSupport"]),
        .testTarget(name: "HubWireTests", dependencies: ["HubWire"]),
        .testTarget(name: "MatterBTPTests", dependencies: ["MatterBTP", "MatterTime"]),
        .testTarget(name: "HTTPWebSocketTests", dependencies: ["HTTPWebSocket", "MatterCrypto", "MatterTime"]),
        .testTarget(name: "OpenThreadRESTTests", dependencies: ["OpenThreadREST", "HTTPClient", "MatterTestSupport", "MatterTime"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["CTLS", "HTTPClient", "MatterTestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "BlueZTests", dependencies: ["BlueZ", "HomeHub", "MatterBTP", "MatterMessaging", "MatterPlatform", "MatterTestSupport"],
            exclude: ["bluez-standin.py"]),
        .testTarget(name: "MatterOTATests", dependencies: ["MatterOTA"]),
        .testTarget(name: "MatterBDXTests", dependencies: ["MatterBDX", "MatterTime"]),
        .testTarget(name: "BLEProxyTests", dependencies: ["BLEProxy", "MatterBTP", "MatterPlatform", "MatterTime", "MatterTestSupport"]),
        .testTarget(name: "MatterPlatformTests", dependencies: ["MatterPlatform", "MatterMessaging", "MatterDiscovery", "MatterTestSupport"]),
        .testTarget(name: "HomeHubTests", dependencies: ["HomeRecords", "HomeHub", "MatterBTP", "MatterNode", "MatterDiscovery", "MatterPlatform", "MatterSecureChannel", "MatterCrypto", "MatterInteraction", "MatterTLV", "MatterDataModel", "MatterTestSupport"]),
        .testTarget(name: "HomeAPITests", dependencies: ["HubWire", "HomeRecords", "HomeAPI", "HomeEngine", "MatterServer", "VendorFixture", "HTTPWebSocket", "HomeHub", "MatterDataModel", "MatterInteraction", "MatterTLV", "MatterTestSupport",
                                                         "MatterNode", "MatterDevice", "MatterCertificates", "MatterOnboarding", "MatterPlatform", "MatterDiscovery", "MatterTime"]),
        .testTarget(name: "MatterNodeTests", dependencies: ["MatterBDX", "MatterDiscovery", "MatterMessaging", "MatterNode", "MatterPlatform", "MatterTestSupport", "MatterTime"]),
        .testTarget(name: "MatterDeviceTests", dependencies: [
            "HomeRecords", "MatterDiscovery", "MatterNode", "MatterDevice", "HomeHub", "MatterInteraction", "MatterCertificates", "MatterDataModel", "MatterTLV", "MatterOnboarding",
            "MatterPlatform", "MatterSecureChannel", "MatterCrypto", "MatterTestSupport", "MatterBTP", "BLEProxy",
        ]),
        .testTarget(name: "HomeCommandLineTests", dependencies: ["HubWire", "HomeRecords", "HomeCommandLine", "HomeEngine", "HomeHub", "MatterInteraction", "MatterTLV", "MatterNode", "MatterDevice", "MatterCertificates", "MatterDiscovery", "MatterPlatform"]),
        .testTarget(name: "MatterDataModelTests", dependencies: ["MatterDataModel", "MatterTLV", "MatterTestSupport", "VendorFixture"]),
        // A vendor's clusters and their traits as an app's own package generates them (datamodel-generator output for
        // the IDL beside it, scripts/generate-datamodel.sh), shared by the data model's tests and the Home API's.
        .target(name: "VendorFixture", dependencies: ["HomeAPI", "MatterDataModel", "MatterTLV"], path: "Tests/VendorFixture",
                exclude: ["AcmeClusters.matter"]),
        .testTarget(name: "DataModelGeneratorTests", dependencies: ["DataModelGenerator"]),
    ],
    swiftLanguageModes: [.v6]
)
