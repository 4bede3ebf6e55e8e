// swift-tools-version: 6.0
// The Shelf app, on Trellis (written by `trellis app new Shelf`).
//
//   swift run      builds it and opens its window (`swift run shelf /items/1` opens that page)
//   swift test     runs its test: the pages driven without a window
//
// Shelf (Sources/Shelf) holds the pages and routes, with no GTK: the window (Sources/ShelfApp)
// and the test (Tests/ShelfTests) each show them their own way.
import PackageDescription

let package = Package(
    name: "Shelf",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "shelf", targets: ["ShelfApp"]),
    ],
    dependencies: [
        .package(name: "Trellis", path: "@TRELLIS_SOURCES@"),
    ],
    targets: [
        .target(name: "Shelf", dependencies: [.product(name: "TrellisCore", package: "Trellis")]),
        .executableTarget(name: "ShelfApp", dependencies: ["Shelf", .product(name: "TrellisGtk", package: "Trellis")]),
        .testTarget(name: "ShelfTests", dependencies: ["Shelf", .product(name: "TrellisHeadless", package: "Trellis")]),
    ]
)
