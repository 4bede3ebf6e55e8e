import ArgumentParser
import Foundation
import TrellisCore
import TrellisDemo

/// `trellis plugin new NAME [--swift | --c] [DIR]`: a plugin that builds, loads and passes its
/// test as it is (see "Writing a plugin").
struct PluginGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin", abstract: "Make a new plugin.", subcommands: [NewPlugin.self])
}

struct NewPlugin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new plugin: a page with an Add button, a status line, two settings, a build file and a test.",
        discussion: """
            Swift (the default): swift build, then trellis --plugin-dev DIR; swift test runs its test.
            C (--c): make, then trellis --plugin-dev DIR; make check runs its test.
            """)

    @Argument(help: "The plugin's name, such as Shelf or BookShelf: its id is the name in lower case, words joined by '-' (book-shelf).")
    var name: String

    @Argument(help: "The folder to write it in, which must not exist or be empty (default: ./NAME).")
    var directory: String?

    @Flag(help: "The language to write it in.")
    var language: Language = .swift

    enum Language: String, EnumerableFlag {
        case swift, c
    }

    func run() throws {
        let name = try ProjectName(name)
        if let problem = name.pluginProblem(appRoutes: MainActor.assumeIsolated { DemoApp.routePatterns }) {
            throw ProjectNameError(name: self.name, reason: problem)
        }
        let data = try Resources.dataDirectory()
        let sdk = try TrellisLocation.pluginSDK(data: data)
        let destination = URL(fileURLWithPath: directory ?? name.typeName).standardizedFileURL
        let template = ProjectTemplate(language == .swift ? "plugin-swift" : "plugin-c", data: data)
        try template.write(name, to: destination, placeholders: [
            "TRELLIS_PLUGIN_SDK": sdk.path,
            "TRELLIS_INCLUDE": sdk.appendingPathComponent("Sources/TrellisPluginABI/include").path,
        ])
        let build = language == .swift ? "swift build" : "make"
        print("Wrote the plugin \(name.id) (\(language == .swift ? "Swift" : "C")) in \(destination.path). Next:")
        print(Self.steps([
            ("cd \(Self.shellQuoted(directory ?? name.typeName)) && \(build)", "builds it"),
            ("trellis --plugin-dev .", "the window with its page, \(name.typeName) in the menu; reloaded after each \(build)"),
            (language == .swift ? "swift test" : "make check", "its test: the page driven without a window"),
        ]))
    }

    /// Commands and what each does, aligned as a shell session with comments.
    static func steps(_ steps: [(command: String, comment: String)]) -> String {
        let width = steps.map(\.command.count).max() ?? 0
        return steps.map { step in
            step.comment.isEmpty ? "  " + step.command : "  " + step.command.padding(toLength: width, withPad: " ", startingAt: 0) + "   # " + step.comment
        }.joined(separator: "\n")
    }

    static func shellQuoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-~".contains($0) } ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// `trellis app new NAME [DIR]`: an app package — a routed page, the window, a headless test —
/// that `swift run` opens and `swift test` passes (see "Getting started").
struct AppGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Make a new app.", subcommands: [NewApp.self])
}

struct NewApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new app package: a routed list page, its window, and a headless test.",
        discussion: "Then: swift run opens its window; swift test runs its test.")

    @Argument(help: "The app's name, such as Books: its package, executable and module names.")
    var name: String

    @Argument(help: "The folder to write it in, which must not exist or be empty (default: ./NAME).")
    var directory: String?

    func run() throws {
        let name = try ProjectName(name)
        let data = try Resources.dataDirectory()
        guard let sources = TrellisLocation.sourceTree(data: data) else { throw GeneratorError.noSources }
        let destination = URL(fileURLWithPath: directory ?? name.typeName).standardizedFileURL
        try ProjectTemplate("app", data: data).write(name, to: destination, placeholders: ["TRELLIS_SOURCES": sources.path])
        print("Wrote the app \(name.typeName) in \(destination.path). Next:")
        print(NewPlugin.steps([
            ("cd \(NewPlugin.shellQuoted(directory ?? name.typeName))", ""),
            ("swift run", "builds it (the first build compiles Trellis: minutes) and opens its window"),
            ("swift test", "its test: the pages driven without a window"),
        ]))
    }
}

/// Where the generators find what a new project builds against.
enum TrellisLocation {
    /// The checkout `data` belongs to (`<tree>/data`), if it is one.
    static func sourceTree(data: URL) -> URL? {
        let tree = data.deletingLastPathComponent()
        return FileManager.default.fileExists(atPath: tree.appendingPathComponent("Package.swift").path) ? tree : nil
    }

    /// The plugin SDK package: the checkout's `plugins/TrellisPluginSDK`, or an installed
    /// Trellis's `<prefix>/share/trellis/TrellisPluginSDK` (beside `share/trellis/data`).
    static func pluginSDK(data: URL) throws(GeneratorError) -> URL {
        let candidates = [sourceTree(data: data)?.appendingPathComponent("plugins/TrellisPluginSDK"),
                          data.deletingLastPathComponent().appendingPathComponent("TrellisPluginSDK")].compactMap { $0 }
        guard let sdk = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("Package.swift").path) }) else {
            throw .noSDK(searched: candidates.map(\.path))
        }
        return sdk
    }
}
