// swift-tools-version: 6.0
// The Trellis plugin SDK as a package of its own, for plugins built outside the Trellis tree:
// TrellisPluginSDK, the C ABI (trellis_plugin.h, trellis_json.h) and the JSON type it shares
// with the host, and nothing else. A plugin package that depends on it resolves no other
// package and compiles three small modules once, so its rebuild after an edit takes seconds
// (depending on the whole Trellis package, it resolved nine packages on every build).
//
//   dependencies: [.package(path: "/path/to/trellis/plugins/TrellisPluginSDK")],
//   …
//   .target(name: "Shelf", dependencies: [.product(name: "TrellisPluginSDK", package: "TrellisPluginSDK")])
//
// `trellis plugin new NAME` writes such a package. Its sources are the Trellis tree's own
// (symbolic links to Sources/TrellisPluginABI, Sources/TrellisShared and
// Sources/TrellisPluginSDK), so there is one copy of each; an installed Trellis has this folder
// under <prefix>/share/trellis/TrellisPluginSDK.
import PackageDescription

let package = Package(
    name: "TrellisPluginSDK",
    products: [
        .library(name: "TrellisPluginSDK", targets: ["TrellisPluginSDK"]),
    ],
    targets: [
        .target(name: "TrellisPluginABI"),
        .target(name: "TrellisShared"),
        .target(name: "TrellisPluginSDK", dependencies: ["TrellisPluginABI", "TrellisShared"]),
    ]
)
