import Foundation
import Testing

/// `trellis plugin new` and `trellis app new`, run as an author runs them: in a fresh folder,
/// `trellis` on the PATH, then the commands the generator prints — the C plugin and the app build,
/// the plugin loads in a process of its own and shows its page, and each project's own test
/// passes (a generated Swift plugin is built by PluginWalkthroughTests and InstallTests).
/// The app's test is slow: it compiles TrellisCore, TrellisGtk and TrellisHeadless, into
/// `.build/generated-app` so that a second run compiles only the app.
@Suite("Generators", .serialized)
struct GeneratorTests {
    /// A fresh folder with `bin/trellis` (this build) for the PATH; removed after the test.
    struct Workspace: ~Copyable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-readme-generated-\(UUID().uuidString)")
        var bin: URL { root.appendingPathComponent("bin") }
        var environment: [String: String] {
            ["PATH": "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")",
             "HOME": root.appendingPathComponent("home").path]
        }

        init() throws {
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("trellis"), withDestinationURL: AppDriver.executable)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// Runs `command` in bash in `directory` (relative to the root); fails the test, with the
        /// output, unless it exits 0.
        @discardableResult
        func shell(_ command: String, in directory: String = "", timeout: TimeInterval = 900,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
            let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-euo", "pipefail", "-c", command],
                                               environment: environment, directory: root.appendingPathComponent(directory), timeout: timeout)
            #expect(result.status == 0, "\(command) exited \(result.status):\n\(result.stdout.suffix(3000))\n\(result.stderr.suffix(3000))",
                    sourceLocation: sourceLocation)
            return result
        }
    }

    /// Building, loading and testing a generated Swift plugin is PluginWalkthroughTests'
    /// `swiftPlugin` (the article's steps, literally) and, against the installed SDK,
    /// InstallTests: a third build of the SDK here would prove nothing more.
    @Test("trellis plugin new BookShelf (Swift): the project's files, the id book-shelf, listed by `trellis plugins` before it is built")
    func swiftPlugin() throws {
        let workspace = try Workspace()
        let written = try workspace.shell("trellis plugin new BookShelf")
        #expect(written.stdout.contains("Wrote the plugin book-shelf (Swift)"), "\(written.stdout)")
        #expect(written.stdout.contains("swift build"), "the next step is not printed:\n\(written.stdout)")
        for file in ["plugin.json", "Package.swift", "Sources/BookShelf/BookShelf.swift", "Tests/book-shelf.script"] {
            #expect(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("BookShelf/\(file)").path), "no \(file)")
        }
        let listed = try workspace.shell("trellis plugins --plugin-dir .", in: "BookShelf")
        let line = listed.stdout.split(separator: "\n").first { $0.hasPrefix("book-shelf ") }
        #expect(line?.contains("command line") == true, "\(listed.stdout)")
        let source = try String(contentsOf: workspace.root.appendingPathComponent("BookShelf/Sources/BookShelf/BookShelf.swift"), encoding: .utf8)
        #expect(source.contains("enum BookShelf") && source.contains("static let id = \"book-shelf\""), "\(source)")
    }

    @Test("trellis plugin new Counter --c: make, the plugin loads and its page prints; make check drives it")
    func cPlugin() throws {
        let workspace = try Workspace()
        try workspace.shell("trellis plugin new Counter --c")
        for file in ["plugin.json", "counter.c", "Makefile", "tests/counter.script"] {
            #expect(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("Counter/\(file)").path), "no \(file)")
        }
        try workspace.shell("make", in: "Counter")
        let check = try workspace.shell("trellis plugins --check --plugin-dir .", in: "Counter")
        #expect(check.stdout.split(separator: "\n").contains { $0.hasPrefix("counter ") && $0.contains("loaded") }, "\(check.stdout)")
        let page = try workspace.shell("trellis --headless --plugin-dir . /counter", in: "Counter")
        #expect(page.stdout.contains("Counter") && page.stdout.contains("(Add)"), "\(page.stdout)")
        try workspace.shell("make check", in: "Counter")
    }

    @Test("the Shelf plugins the article shows are the templates the generator writes, so the tests above build them")
    func articleShowsTheTemplates() throws {
        let root = CommandRunner.packageRoot
        let article = try String(contentsOf: root.appendingPathComponent(PluginWalkthroughTests.article), encoding: .utf8)
        for (language, template) in [("swift", "data/templates/plugin-swift/Sources/Shelf/Shelf.swift"), ("c", "data/templates/plugin-c/shelf.c")] {
            let source = try String(contentsOf: root.appendingPathComponent(template), encoding: .utf8)
            #expect(article.contains("```\(language)\n\(source)```"), "the article's \(language) Shelf is not \(template)")
        }
    }

    @Test("a generator refuses a taken folder and a reserved name, writing nothing, and says why")
    func refusals() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent("Taken/x"), withIntermediateDirectories: true)
        let taken = try CommandRunner.run(AppDriver.executable, ["plugin", "new", "Shelf", workspace.root.appendingPathComponent("Taken").path])
        #expect(taken.status != 0 && taken.stderr.contains("is not an empty folder"), "\(taken.stderr)")
        let reserved = try CommandRunner.run(AppDriver.executable, ["plugin", "new", "Network"], directory: workspace.root)
        #expect(reserved.status != 0 && reserved.stderr.contains("network"), "\(reserved.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("Network").path))
    }

    @Test("trellis app new Books: it builds, and its own headless test passes")
    func app() throws {
        let workspace = try Workspace()
        let written = try workspace.shell("trellis app new Books")
        #expect(written.stdout.contains("swift run"), "\(written.stdout)")
        // The author's `swift build` and `swift test`, with the build folder kept in this checkout's
        // .build: the Trellis modules the app uses compile once, not at every run of this test.
        let scratch = CommandRunner.packageRoot.appendingPathComponent(".build/generated-app").path
        try workspace.shell("swift build --build-tests --scratch-path '\(scratch)'", in: "Books", timeout: 1800)
        let tested = try workspace.shell("swift test --skip-build --scratch-path '\(scratch)'", in: "Books")
        #expect((tested.stdout + tested.stderr).contains("passed"), "\(tested.stdout)\n\(tested.stderr)")
        #expect(FileManager.default.isExecutableFile(atPath: scratch + "/debug/books"))
    }
}
