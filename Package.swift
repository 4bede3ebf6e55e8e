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
        .library(name: "TrellisStore", targets: ["TrellisStore"]),
        .library(name: "TrellisSync", targets: ["TrellisSync"]),
        .executable(name: "trellis", targets: ["trellis"]),
        .executable(name: "trellis-bench", targets: ["trellis-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Benchmark-only: the baseline for `trellis-bench routes`.
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.0"),
        // Test-only: the REST server TrellisSyncTests runs on 127.0.0.1.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
    ],
    targets: [
        .target(
            name: "TrellisCore",
            dependencies: [
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
            name: "TrellisStore",
            dependencies: [
                "TrellisCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TrellisSync",
            dependencies: [
                "TrellisCore",
                "TrellisStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            // Text for the lead to paste into the README.
            exclude: ["README-section.md"]
        ),
        // Helper for the store's crash-safety test: saves in a loop until it is killed.
        .executableTarget(
            name: "trellis-store-crasher",
            dependencies: ["TrellisStore"]
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
                "TrellisStore",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ],
            exclude: ["Baselines"]
        ),
        .testTarget(name: "TrellisCoreTests", dependencies: ["TrellisCore"]),
        .testTarget(name: "TrellisStoreTests", dependencies: ["TrellisStore", "TrellisCore"]),
        .testTarget(
            name: "TrellisSyncTests",
            dependencies: [
                "TrellisSync", "TrellisStore", "TrellisCore",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        .testTarget(name: "TrellisHeadlessTests", dependencies: ["TrellisHeadless", "TrellisDemo", "TrellisCore"]),
        .testTarget(
            name: "TrellisGtkTests",
            dependencies: ["TrellisGtk", "CGtk", "CTrellisGtk", "TrellisCore"]
        ),
    ]
)
