// swift-tools-version: 6.0
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer), one executable per `FuzzEntry` of the MatterFuzzing library. Kept out of
// the project's own build and tests: scripts/fuzz.sh builds them with -sanitize=fuzzer,address and runs them.
let entries = [
    "FuzzTLV", "FuzzOnboarding", "FuzzMessage", "FuzzCertificates", "FuzzDNS", "FuzzInteraction", "FuzzPASE",
    "FuzzCASE", "FuzzMDNSResponder", "FuzzInteractionServer", "FuzzHubProtocol", "FuzzHTTPRequest", "FuzzWebSocket",
    "FuzzMatterServerRequest", "FuzzHubOperations",
]

let package = Package(
    name: "swift-home-fuzz",
    dependencies: [.package(name: "swift-home", path: "..")],
    targets: [
        // Declares LLVMFuzzerRunDriver: SwiftPM gives each executable its own main, which hands over to libFuzzer.
        .target(name: "CFuzzerDriver")
    ]
        + entries.map { name in
            // The hub protocol's target links its wire types only, no hub (`HubProtocolFuzzing`).
            let library = name == "FuzzHubProtocol" ? "HubWire" : "MatterFuzzing"
            return .executableTarget(
                name: name, dependencies: ["CFuzzerDriver", .product(name: library, package: "swift-home")])
        }
)
