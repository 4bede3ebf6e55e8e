import Foundation
import XCTest

/// `meson install` into a temporary prefix gives a tree that runs from wherever it is moved:
/// the installed `trellis` finds its data and translations relative to its own location.
///
/// Slow the first time (a release build of the package inside Meson, in
/// `.build/meson-install-test`, kept between runs so later runs rebuild incrementally). The
/// build is neither optimized nor carries debug information
/// (`-Dswiftpm_flags=-Xswiftc,-Onone,-Xswiftc,-gnone`): what is checked is the installed tree and
/// how the release build links, which both would only make slower to reach.
final class InstallTests: XCTestCase {
    static let appID = "io.github.trellis.Demo"

    func testMesonInstallsARelocatableTreeThatFindsItsDataAndRunsToItsFirstFrame() throws {
        try AppDriver.requireDisplay()
        let root = CommandRunner.packageRoot
        let build = root.appendingPathComponent(".build/meson-install-test")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-install-\(UUID().uuidString)")
        let prefix = work.appendingPathComponent("prefix")
        defer { try? FileManager.default.removeItem(at: work) }

        let configured = FileManager.default.fileExists(atPath: build.appendingPathComponent("meson-private").path)
        try meson(["setup"] + (configured ? ["--reconfigure"] : [])
                  + ["--prefix", prefix.path, "-Dswiftpm_flags=-Xswiftc,-Onone,-Xswiftc,-gnone", build.path, root.path])
        try meson(["compile", "-C", build.path], timeout: 1800)
        // What `meson compile` just built: without --no-rebuild, install runs every `swift build` again.
        try meson(["install", "--quiet", "--no-rebuild", "-C", build.path])

        let installed = ["bin/trellis", "libexec/trellis/trellis-plugin-host", "lib/trellis/libTrellisHTTP.so", "share/trellis/data/catalog-genres.ru.txt", "share/locale/ru/LC_MESSAGES/trellis.mo",
                         "share/applications/\(Self.appID).desktop", "share/metainfo/\(Self.appID).metainfo.xml",
                         "share/icons/hicolor/scalable/apps/\(Self.appID).svg"]
        for path in installed {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), "\(path) is not installed")
        }
        for path in ["po", "icons", "\(Self.appID).desktop", "\(Self.appID).metainfo.xml"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/trellis/data/\(path)").path),
                           "share/trellis/data/\(path) is installed with the app's data")
        }

        // Moved away from where it was installed, far from the source tree, with no TRELLIS_*
        // variables (CommandRunner drops them) and run from /: only paths relative to the
        // executable can lead it to its data.
        let moved = work.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: prefix, to: moved)
        let trellis = moved.appendingPathComponent("bin/trellis")
        let slash = URL(fileURLWithPath: "/")
        let environment = ["XDG_CONFIG_HOME": work.appendingPathComponent("config").path, "LANGUAGE": ""]

        let catalog = try CommandRunner.run(trellis, ["--headless", "/catalog"], environment: environment, directory: slash)
        XCTAssertEqual(catalog.status, 0, catalog.stderr)
        // Status lines ("-- Location: …", set by the installed Location plugin) follow the rows.
        let lines = catalog.stdout.split(separator: "\n").filter { !$0.hasPrefix("-- ") }
        XCTAssertEqual(lines.first, "< Catalog")
        XCTAssertEqual(lines.count, 2 + 214, "the header, its rule and every genre")
        XCTAssertTrue(lines.contains("Фэнтези"))

        var russian = environment
        russian["LANGUAGE"] = "ru"
        let translated = try CommandRunner.run(trellis, ["--headless", "/catalog"], environment: russian, directory: slash)
        XCTAssertEqual(translated.stdout.split(separator: "\n").first, "< Каталог", "the installed catalogue is found")

        // c-hello runs in a process of its own: the installed plugin host is found beside the tree.
        let plugins = try CommandRunner.run(trellis, ["plugins", "--check"], environment: environment, directory: slash)
        XCTAssertEqual(plugins.status, 0, plugins.stderr)
        let hello = plugins.stdout.split(separator: "\n").first { $0.hasPrefix("c-hello ") }
        XCTAssertTrue(hello?.contains("loaded") == true, plugins.stdout + plugins.stderr)

        let window = try CommandRunner.run(trellis, ["--exit-after-first-frame"], environment: environment, directory: slash)
        XCTAssertEqual(window.status, 0, window.stderr)

        // The release build carries the Swift runtime; the libraries it opens bring their own.
        try checkRuntimeIsInside(trellis)
        let withData = environment.merging(["XDG_DATA_HOME": work.appendingPathComponent("data").path]) { _, new in new }
        try checkSwiftPluginInItsProcess(tree: moved, environment: withData, directory: slash)
        try checkHTTPLibrary(trellis, environment: withData, work: work)

        try checkPluginGenerator(trellis, environment: environment, work: work)

        let entry = try CommandRunner.tool("desktop-file-validate", [moved.appendingPathComponent("share/applications/\(Self.appID).desktop").path])
        XCTAssertEqual(entry.status, 0, entry.stdout)
    }

    /// `trellis plugin new` of the installed tree writes plugins against the installed SDK (no
    /// source tree): a C one builds with its make, a Swift one with `swift build` against
    /// share/trellis/TrellisPluginSDK (its first build compiles the SDK, some 15 s); each loads
    /// and shows its page.
    private func checkPluginGenerator(_ trellis: URL, environment: [String: String], work: URL) throws {
        let sdk = trellis.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/trellis/TrellisPluginSDK")
        for file in ["Package.swift", "Sources/TrellisPluginSDK/PluginPages.swift", "Sources/TrellisShared/JSONValue.swift",
                     "Sources/TrellisPluginABI/include/trellis_json.h"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: sdk.appendingPathComponent(file).path), "the installed SDK has no \(file)")
        }
        for (name, language, build) in [("Counter", "--c", ["make", "-s"]), ("Shelf", "--swift", ["swift", "build"])] {
            let folder = work.appendingPathComponent(name)
            let written = try CommandRunner.run(trellis, ["plugin", "new", name, language, folder.path], environment: environment)
            XCTAssertEqual(written.status, 0, written.stderr)
            if language == "--swift" {
                let package = try String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)
                XCTAssertTrue(package.contains("share/trellis/TrellisPluginSDK\")") && !package.contains(CommandRunner.packageRoot.path),
                              "not the installed SDK:\n\(package)")
            }
            let built = try CommandRunner.tool(build[0], Array(build.dropFirst()), directory: folder, timeout: 900)
            XCTAssertEqual(built.status, 0, built.stdout + built.stderr)
            let id = name.lowercased()
            let checked = try CommandRunner.run(trellis, ["plugins", "--check", "--plugin-dir", folder.path], environment: environment)
            XCTAssertTrue(checked.stdout.split(separator: "\n").contains { $0.hasPrefix("\(id) ") && $0.contains("loaded") }, checked.stdout + checked.stderr)
            let page = try CommandRunner.run(trellis, ["--headless", "--plugin-dir", folder.path, "/\(id)"], environment: environment)
            XCTAssertTrue(page.stdout.contains(name) && page.stdout.contains("(Add)"), page.stdout + page.stderr)
        }
    }

    private func meson(_ arguments: [String], timeout: TimeInterval = 300) throws {
        let result = try CommandRunner.tool("meson", arguments, timeout: timeout)
        guard result.status == 0 else {
            throw CommandRunner.Failure.failed(command: "meson " + arguments.joined(separator: " "),
                                               output: String((result.stdout + result.stderr).suffix(4000)))
        }
    }
}
