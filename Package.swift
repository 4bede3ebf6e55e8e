// swift-tools-version: 6.0
import PackageDescription

/// Trellis: a plugin-based, desktop-agnostic application shell for Linux.
///
/// Dependency direction (see README "Layout"):
///   trellis → TrellisDemo → TrellisGtk / TrellisHeadless → TrellisCore
///   TrellisGtk → CTrellisGtk → CGtk (system gtk4)
/// TrellisCore imports neither GTK nor SQLite.
/// Linker flags exporting the ThreadSanitizer entry points that instrumented shared
/// libraries opened at run time call and the runtime does not export (see TrellisCoreTests).
/// The C library functions the plugin host defines again, so that a refusal by the kernel
/// names the grant to add (Sources/trellis-plugin-host/denial.h): exported, so that the plugin's
/// library finds them before the C library's (debug builds export every symbol).
let explainsRefusals = ["open", "open64", "openat", "openat64", "creat", "fopen", "fopen64", "opendir", "mkdir",
                        "socket", "connect", "bind", "execve", "execv", "execvp"].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }

let exportsThreadSanitizerEntryPoints: [LinkerSetting] = [
    .unsafeFlags(["__tsan_external_read", "__tsan_external_write", "__tsan_ignore_thread_begin",
                  "__tsan_ignore_thread_end"].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }),
]

/// The demo executable's release build carries the Swift runtime and Foundation inside it
/// (`-static-stdlib`) instead of loading them as 13 shared libraries: the window's first frame
/// comes about 10 ms sooner (`trellis-bench startup`; Benchmarks.md). The library it opens at
/// run time, libTrellisHTTP.so, loads its own copy of the runtime beside it: it crosses only its
/// C boundary, so that works (the meson install test runs it), at the cost of loading that copy.
/// (Plugins never load into this process: each runs in a process of its own.) Nothing of the
/// executable is exported (`--no-export-dynamic`), so no library opened later binds to its copy
/// by mistake.
/// Foundation's own C libraries are named explicitly, which lld (unlike ld.gold) finds wherever
/// they stand on the command line. Debug builds (tests, `.ci/launch`) keep the shared runtime.
let linksSwiftRuntimeStatically: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "--no-export-dynamic"]
                 + ["CoreFoundation", "_FoundationICU", "_FoundationCShims", "_FoundationCollections"].flatMap { ["-Xlinker", "-l\($0)"] },
                 .when(platforms: [.linux], configuration: .release)),
]

let argumentParser = Package.Dependency.package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
let propertyBased = Package.Dependency.package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0")
let routingKit = Package.Dependency.package(url: "https://github.com/vapor/routing-kit", from: "4.9.0")

let package = Package(
    name: "Trellis",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "TrellisCore", targets: ["TrellisCore"]),
        .library(name: "TrellisHeadless", targets: ["TrellisHeadless"]),
        // For app authors' tests (as NIOEmbedded is for SwiftNIO's): an event recorder, a
        // trace, a log capture.
        .library(name: "TrellisTesting", targets: ["TrellisTesting"]),
        .library(name: "TrellisGtk", targets: ["TrellisGtk"]),
        .library(name: "TrellisPlugins", targets: ["TrellisPlugins"]),
        .library(name: "TrellisPluginSDK", targets: ["TrellisPluginSDK"]),
        // The plugins in plugins/, one shared library each, loaded at run time by the host.
        .library(name: "TrellisPluginNetworkActivity", type: .dynamic, targets: ["TrellisPluginNetworkActivity"]),
        .library(name: "TrellisPluginLocation", type: .dynamic, targets: ["TrellisPluginLocation"]),
        .library(name: "TrellisPluginTemplate", type: .dynamic, targets: ["TrellisPluginTemplate"]),
        .library(name: "TrellisPluginCHello", type: .dynamic, targets: ["TrellisPluginCHello"]),
        .library(name: "TrellisStore", targets: ["TrellisStore"]),
        .library(name: "TrellisSync", targets: ["TrellisSync"]),
        // TrellisSync's HTTP transport, loaded on the first request (see Sources/TrellisHTTP).
        .library(name: "TrellisHTTP", type: .dynamic, targets: ["TrellisHTTP"]),
        .executable(name: "trellis", targets: ["trellis"]),
        .executable(name: "trellis-bench", targets: ["trellis-bench"]),
        .executable(name: "trellis-plugin-host", targets: ["trellis-plugin-host"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        argumentParser,
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Test-only: property-based fuzzing of everything that parses outside input.
        propertyBased,
        // Benchmark-only: the baseline for `trellis-bench routes`.
        routingKit,
        // Test-only: the REST server TrellisSyncTests runs on 127.0.0.1.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
        // Docs-only: `swift package generate-documentation` (see README "Documentation").
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The plugin boundary: a C header only (plus layout checks); see trellis_plugin.h.
        .target(name: "TrellisPluginABI"),
        // <libintl.h> (gettext in glibc), for TrellisCore's Localization.
        .systemLibrary(name: "CGettext"),
        // Linux interfaces Swift's Glibc leaves out (<sys/pidfd.h>), for TrellisPlugins.
        .systemLibrary(name: "CLinux"),
        // What host and plugins both use, and nothing else: JSONValue and LockedState. Plugins
        // link this instead of TrellisCore, which keeps each plugin library small and quick
        // to open (a copy of TrellisCore was 15 MB and 3,600 symbol bindings per plugin).
        .target(name: "TrellisShared"),
        .target(
            name: "TrellisCore",
            dependencies: [
                "TrellisShared",
                "CGettext",
                .product(name: "Logging", package: "swift-log"),
                // The two modules used, not the `Collections` umbrella: each module linked adds its
                // protocol conformances to the table the Swift runtime searches on every first
                // cast, which start-up does about 150 times (Benchmarks.md, "startup").
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The plugin host: discovery, manifests, plugin processes and their wire, the pages and
        // settings plugins contribute. TrellisCore knows none of it: it exposes the contribution
        // points (routes, commands, status items, settings, the bus) that this module fills.
        .target(
            name: "TrellisPlugins",
            dependencies: [
                "TrellisCore",
                "TrellisPluginABI",
                "CLinux",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The Swift wrapper over the plugin ABI. It uses TrellisShared for JSONValue and a lock:
        // each plugin links a private static copy of it, which is harmless because nothing but
        // the C ABI (and JSON text) crosses between plugin and host.
        .target(name: "TrellisPluginSDK", dependencies: ["TrellisPluginABI", "TrellisShared"]),
        .target(name: "TrellisPluginNetworkActivity", dependencies: ["TrellisPluginSDK"],
                path: "plugins/NetworkActivity/Sources"),
        .target(name: "TrellisPluginLocation", dependencies: ["TrellisPluginSDK"],
                path: "plugins/Location/Sources"),
        .target(name: "TrellisPluginTemplate", dependencies: ["TrellisPluginSDK"],
                path: "plugins/Template/Sources"),
        // A plugin in plain C: the proof that the ABI is language-neutral.
        .target(name: "TrellisPluginCHello", dependencies: ["TrellisPluginABI"],
                path: "plugins/CHello/Sources", publicHeadersPath: "."),
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
            // TrellisHTTP is not a dependency: it is opened at run time, never linked.
            dependencies: [
                "TrellisCore",
                "TrellisStore",
                "TrellisHTTPABI",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The C boundary of libTrellisHTTP.so, used by both sides: a header only (plus layout
        // checks); see trellis_http.h.
        .target(name: "TrellisHTTPABI"),
        // URLSession behind that boundary, in a library of its own (Sources/TrellisHTTP says why).
        .target(name: "TrellisHTTP", dependencies: ["TrellisHTTPABI"]),
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
            name: "TrellisTesting",
            dependencies: [
                "TrellisCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TrellisDemo",
            dependencies: ["TrellisCore", "TrellisPlugins", "TrellisStore", "TrellisSync"]
        ),
        .executableTarget(
            name: "trellis",
            dependencies: [
                "TrellisDemo", "TrellisCore", "TrellisPlugins", "TrellisGtk", "TrellisHeadless", "TrellisStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // It opens libTrellisHTTP.so and the plugins, instrumented too when it is built with
            // `--sanitize=thread` (see TrellisCoreTests); CI's ThreadSanitizer lane leaves it out.
            linkerSettings: exportsThreadSanitizerEntryPoints + linksSwiftRuntimeStatically
        ),
        // One plugin in a process of its own, confined by the kernel before the plugin's library
        // is opened (Sources/trellis-plugin-host/confine.h). Plain C. In release builds it loads
        // no Swift library: `-static-stdlib` takes nothing of the runtime, as nothing refers to
        // it (swift_image.c says why), so a C plugin's process stays small. Debug builds (the
        // tests, ThreadSanitizer's among them) link the shared runtime: the static one's
        // `--exclude-libs ALL` would hide the sanitizer's entry points, which the instrumented
        // plugins it opens call (hence those exports, as for `trellis`).
        .executableTarget(
            name: "trellis-plugin-host",
            dependencies: ["TrellisPluginABI"],
            linkerSettings: exportsThreadSanitizerEntryPoints
                + [.unsafeFlags(["-static-stdlib", "-Xlinker", "--no-export-dynamic"] + explainsRefusals, .when(configuration: .release))]
        ),
        .executableTarget(
            name: "trellis-bench",
            dependencies: [
                "TrellisCore", "TrellisPlugins", "TrellisGtk", "CGtk",
                "TrellisStore", "TrellisSync",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ],
            exclude: ["Baselines"]
        ),
        .testTarget(name: "TrellisCoreTests", dependencies: ["TrellisCore", "TrellisTesting"]),
        .testTarget(
            name: "TrellisPluginsTests",
            dependencies: ["TrellisPlugins", "TrellisCore", "TrellisTesting"],
            // A plugin as released for ABI 1 (header, source, manifest), compiled by a test.
            exclude: ["Fixtures"],
            // The plugin tests load the plugins' shared libraries. Under `--sanitize=thread` those
            // are instrumented too and call into the ThreadSanitizer runtime linked into the test
            // executable, which exports most of its entry points but not these four (gold takes
            // no wildcard here). Without the sanitizer the symbols do not exist and nothing changes.
            linkerSettings: exportsThreadSanitizerEntryPoints
        ),
        .testTarget(name: "TrellisPluginSDKTests", dependencies: ["TrellisPluginSDK"]),
        .testTarget(
            name: "TrellisFuzzTests",
            dependencies: ["TrellisCore", "TrellisPlugins", "TrellisStore", "TrellisPluginABI", "TrellisTesting",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "TrellisStoreTests",
            // The crash-safety test runs trellis-store-crasher as a child process.
            dependencies: ["TrellisStore", "TrellisCore", "TrellisTesting", "trellis-store-crasher"]
        ),
        .testTarget(
            name: "TrellisSyncTests",
            dependencies: [
                "TrellisSync", "TrellisStore", "TrellisCore", "TrellisDemo", "TrellisHeadless", "TrellisPlugins", "TrellisTesting",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            // The Django REST Framework server and the chaos proxy the tests run (read from the source tree).
            exclude: ["Support/drf_notes_server.py", "Support/chaos_proxy.py"]
        ),
        .testTarget(name: "TrellisHeadlessTests",
                    dependencies: ["TrellisHeadless", "TrellisDemo", "TrellisCore", "TrellisPlugins", "TrellisStore", "TrellisTesting"]),
        .testTarget(name: "TrellisTestingTests", dependencies: ["TrellisTesting", "TrellisCore", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "TrellisGtkTests",
            dependencies: ["TrellisGtk", "CGtk", "CTrellisGtk", "TrellisCore", "TrellisTesting"],
            // The AT-SPI clients the screen-reader tests run and the wrapper they run Orca through
            // (read from the source tree).
            exclude: ["Accessibility/atspi-names.py", "Support/atspi-driver.py", "Support/orca-flushing.py"]
        ),
        // Every ```swift block of README.md and the .docc articles, extracted by
        // .ci/doc-examples into Generated/ (one file each), so that building the tests compiles them.
        .testTarget(
            name: "DocExamplesTests",
            dependencies: ["TrellisCore", "TrellisPlugins", "TrellisHeadless", "TrellisTesting", "TrellisGtk", "TrellisStore",
                           "TrellisSync", "TrellisPluginSDK", "TrellisShared", "TrellisDemo", .product(name: "Logging", package: "swift-log")]
        ),
    ]
)

// ThreadSanitizer's lane of CI (.ci/tsan sets TRELLIS_THREAD_SANITIZER_LANE) runs the headless
// tests only, so it builds nothing that only the GUI, fuzz and doc-example tests, the
// benchmarks and the tests that run the `trellis` executable need (.ci/test runs those): not
// the executable, GTK's modules or swift-argument-parser. Leaving out the first three took that
// build from 8.0 to 6.7 min of processor time (on a fresh clone), the rest from 301 to 259 s of
// user time (Benchmarks.md, "CI run"), on the 2 cores CI shares between its two lanes.
if Context.environment["TRELLIS_THREAD_SANITIZER_LANE"] != nil {
    let notInTheLane: Set<String> = ["TrellisGtkTests", "TrellisFuzzTests", "DocExamplesTests", "trellis-bench",
                                     "trellis", "TrellisGtk", "CTrellisGtk", "CGtk"]
    package.targets.removeAll { notInTheLane.contains($0.name) }
    package.products.removeAll { notInTheLane.contains($0.name) }
    package.dependencies.removeAll { $0 === propertyBased || $0 === routingKit || $0 === argumentParser }
}
