// swift-tools-version: 6.0
// The Shelf plugin for Trellis (written by `trellis plugin new Shelf`).
//
//   swift build                  builds .build/debug/libShelf.so, the library plugin.json names
//   trellis --plugin-dev .       opens the window with the plugin, reloaded after each build
//   swift test                   builds it and runs Tests/shelf.script in trellis --headless
//
// It depends on the Trellis plugin SDK alone (no other package), so a rebuild takes seconds.
import PackageDescription

let package = Package(
    name: "Shelf",
    products: [
        .library(name: "Shelf", type: .dynamic, targets: ["Shelf"]),
    ],
    dependencies: [
        .package(path: "@TRELLIS_PLUGIN_SDK@"),
    ],
    targets: [
        .target(name: "Shelf", dependencies: [.product(name: "TrellisPluginSDK", package: "TrellisPluginSDK")]),
        .testTarget(name: "ShelfTests"),
    ]
)
