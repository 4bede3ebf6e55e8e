// swift-tools-version: 6.0
// Builds this plugin on its own, outside the Trellis tree (see README "Writing a plugin"):
//
//   TRELLIS_SOURCE=/path/to/trellis swift build -c release
//   trellis --plugin-dir .
//
// Inside the Trellis tree the root Package.swift builds it instead, and TRELLIS_SOURCE
// defaults to the tree itself.
import PackageDescription

let trellisSource = Context.environment["TRELLIS_SOURCE"] ?? "../.."

let package = Package(
    name: "TrellisPluginTemplate",
    products: [
        // The file name (libTrellisPluginTemplate.so) is the manifest's "library".
        .library(name: "TrellisPluginTemplate", type: .dynamic, targets: ["TrellisPluginTemplate"]),
    ],
    dependencies: [
        .package(name: "Trellis", path: trellisSource),
    ],
    targets: [
        .target(
            name: "TrellisPluginTemplate",
            dependencies: [.product(name: "TrellisPluginSDK", package: "Trellis")],
            path: "Sources"
        ),
    ]
)
