import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore

/// What a plugin's author reads when something is wrong: every problem of a manifest at once,
/// the plugin named as its manifest names it, a refused page listed as refused, and the library
/// last built loaded whether it was built for debugging or for release.
@Suite("Plugin reports for authors")
struct PluginAuthorReportTests {
    private let file = "/plugins/Shelf/plugin.json"

    @Test("a manifest with several mistakes reports each, naming its key, once")
    func everyProblemAtOnce() {
        let json: JSONValue = [
            "id": "shelf", "name": "Shelf", "version": "1", "abiVersion": "2", "library": "lib/shelf.so",
            "setings": [], "services": "shelf", "autostart": ["shelf": .null],
            "routes": [["pattern": "/shelf", "title": "Shelf", "content": "tabel"]],
        ]
        #expect {
            try PluginManifest(json: json, file: file)
        } throws: { error in
            guard let error = error as? PluginManifestError, case .several(let problems) = error else { return false }
            // A mistyped "services" is told once: not again as "autostart names no service".
            return problems == [
                .invalidValue(file: file, key: "setings", reason: "unknown key (known: \(PluginManifest.knownKeys.joined(separator: ", ")))"),
                .wrongType(file: file, key: "abiVersion", expected: "an integer"),
                .wrongType(file: file, key: "services", expected: "an array of strings"),
                .invalidValue(file: file, key: "routes[0].content", reason: "\"tabel\" is not one of table, form, text"),
                .invalidValue(file: file, key: "library", reason: "\"lib/shelf.so\" must be a file name without a folder or control characters"),
            ] && error.description.hasPrefix("\(file): 5 problems: key \"setings\": unknown key")
        }
    }

    @Test("a refused manifest's plugin is listed under the id and version it declares, with each problem on a line of its own")
    func namedByItsID() throws {
        let sandbox = try PluginSandbox()
        try sandbox.writeManifest(folder: "Shelf", #"{"id": "shelf", "name": "Shelf", "version": "0.3.0", "abiVersion": 2, "library": 7, "setings": {}}"#)
        try sandbox.writeManifest(folder: "Nameless", #"{"id": "not an id!", "version": 1}"#)
        let reports = PluginDiscovery(searchPaths: [PluginSearchPath(directory: sandbox.root, origin: .commandLine)]).discover()
        #expect(reports.map(\.id) == ["Nameless", "shelf"], "a declared id that is no id leaves the folder's name")
        #expect(reports.map(\.version) == ["?", "0.3.0"])
        let table = PluginReport.table(reports, kernel: nil).split(separator: "\n").map(String.init)
        let shelf = try #require(table.firstIndex { $0.hasPrefix("shelf ") })
        #expect(table[shelf].hasPrefix("shelf     0.3.0    failed"), "\(table)")
        #expect(table[shelf + 1].hasSuffix("plugin.json: key \"setings\": unknown key (known: \(PluginManifest.knownKeys.joined(separator: ", ")))"), "\(table)")
        #expect(table[shelf + 2].hasSuffix("plugin.json: key \"library\" must be a string"), "\(table)")
    }

    @Test("a page the app would refuse is listed as refused, with why, and not among what the plugin contributes")
    func refusedPageListedAsRefused() throws {
        let reports = try [("shelf", ["/shelf", "/books", "/catalog/extra"]), ("later", ["/later", "/shelf"])].map { id, patterns in
            let routes = try patterns.map { PluginRoute(pattern: try RoutePattern($0), title: $0, content: .text) }
            let manifest = PluginManifest(id: id, name: id, version: "1", abiVersion: 2, library: "lib.so",
                                          permissions: try PluginPermissions(json: ["contribute": ["/catalog/extra", "/shelf"]], file: file),
                                          routes: routes)
            return PluginReport(id: id, manifest: manifest, directory: URL(fileURLWithPath: "/plugins/\(id)"), origin: .commandLine, state: .loaded)
        }
        let table = PluginReport.table(reports, kernel: nil, appRoutes: [try RoutePattern("/catalog")])
        #expect(table.contains("    contributes: pages /shelf (text)\n"), "\(table)")
        #expect(table.contains("    refused: page /books: it is not under /shelf and no \"contribute\" permission covers it (add it to \"permissions\" in its plugin.json)"), "\(table)")
        #expect(table.contains("    refused: page /catalog/extra: it would shadow the app's route /catalog or a page below it"), "\(table)")
        #expect(table.contains("    contributes: pages /later (text)\n"), "\(table)")
        #expect(table.contains("    refused: page /shelf: plugin \"shelf\" has /shelf already"), "\(table)")
    }

    @Test("of .build/release and .build/debug, the library built last is loaded, wherever it was built first")
    func newestBuildWins() throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "shelf", #"{"id": "shelf", "name": "Shelf", "version": "1", "abiVersion": 2, "library": "libshelf.so"}"#)
        let library = try BuiltPlugins.library("CHello")
        for (build, age) in [("release", 3600.0), ("debug", 0)] {
            let built = folder.appendingPathComponent(".build/\(build)")
            try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: library, to: built.appendingPathComponent("libshelf.so"))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)],
                                                  ofItemAtPath: built.appendingPathComponent("libshelf.so").path)
        }
        let discovery = PluginDiscovery(searchPaths: [PluginSearchPath(directory: folder, origin: .commandLine)])
        #expect(discovery.discover().first?.library?.path.hasSuffix("/.build/debug/libshelf.so") == true)
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: folder.appendingPathComponent(".build/release/libshelf.so").path)
        #expect(discovery.discover().first?.library?.path.hasSuffix("/.build/release/libshelf.so") == true)
        // One beside the manifest comes first, however old.
        try FileManager.default.copyItem(at: library, to: folder.appendingPathComponent("libshelf.so"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: folder.appendingPathComponent("libshelf.so").path)
        #expect(discovery.discover().first?.library?.path == folder.appendingPathComponent("libshelf.so").path)
    }
}
