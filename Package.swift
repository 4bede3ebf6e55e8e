// swift-tools-version: 6.0
import PackageDescription

/// Trellis: a plugin-based, desktop-agnostic application shell for Linux.
///
/// Dependency direction (see README "Layout"):
///   trellis → TrellisDemo → TrellisGtk / TrellisHeadless → TrellisCore
///   TrellisGtk → CTrellisGtk → CGtk (system gtk4)
/// TrellisCore imports neither GTK nor SQLite.
let package = Package(
    name: "Trellis",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "TrellisCore", targets: ["TrellisCore"]),
        .library(name: "TrellisHeadless", targets: ["TrellisHeadless"]),
        .library(name: "TrellisGtk", targets: ["TrellisGtk"]),
        .executable(name: "trellis", targets: ["trellis"]),
        .executable(name: "trellis-bench", targets: ["trellis-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Benchmark-only: the baseline for `trellis-bench routes`.
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.0"),
    ],
    targets: [
        // <libintl.h> (gettext in glibc), for TrellisCore's Localization.
        .systemLibrary(name: "CGettext"),
        .target(
            name: "TrellisCore",
            dependencies: [
                "CGettext",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Collections", package: "swift-collections"),
            ]
        ),
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .target(
            name: "CTrellisGtk",
            dependencies: ["CGtk"]
        ),
        .target(
            name: "TrellisGtk",
            dependencies: ["TrellisCore", "CGtk", "CTrellisGtk", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TrellisHeadless",
            dependencies: ["TrellisCore"]
        ),
        .target(
            name: "TrellisDemo",
            dependencies: ["TrellisCore"]
        ),
        .executableTarget(
            name: "trellis",
            dependencies: [
                "TrellisDemo", "TrellisCore", "TrellisGtk", "TrellisHeadless",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "trellis-bench",
            dependencies: [
                "TrellisCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ],
            exclude: ["Baselines"]
        ),
        .testTarget(name: "TrellisCoreTests", dependencies: ["TrellisCore"]),
        .testTarget(name: "TrellisHeadlessTests", dependencies: ["TrellisHeadless", "TrellisDemo", "TrellisCore"]),
        .testTarget(
            name: "TrellisGtkTests",
            dependencies: ["TrellisGtk", "CGtk", "CTrellisGtk", "TrellisCore"]
        ),
    ]
)
