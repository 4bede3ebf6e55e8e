import Foundation
import Testing
import TrellisCore
import TrellisHeadless
import TrellisPlugins
import TrellisTesting

/// A plugin that fails is told where its author looks (a notice naming it and why, whose button
/// opens the plugins page), and one broken at start-up then fixed under `--plugin-dev` gets every
/// contribution: its page, its menu item, its page action and its status line. The plugin is
/// the C Shelf that `trellis plugin new Shelf --c` writes (data/templates/plugin-c), built with `cc`.
@MainActor
@Suite("Plugin failures told, and fixed under --plugin-dev", .serialized)
struct PluginFailureNoticeTests {
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../data/templates/plugin-c").standardizedFileURL

    /// The C Shelf in `root/shelf`, its manifest as `edit` makes it.
    static func installShelf(in root: URL, edit: (inout JSONValue) -> Void = { _ in }) throws -> URL {
        let folder = root.appendingPathComponent("shelf")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var manifest = try JSONValue(jsonData: Data(contentsOf: template.appendingPathComponent("plugin.json")))
        edit(&manifest)
        try manifest.jsonData().write(to: folder.appendingPathComponent("plugin.json"))
        let include = template.appendingPathComponent("../../../Sources/TrellisPluginABI/include").standardizedFileURL.path
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-std=c11", "-shared", "-fPIC", "-fvisibility=hidden", "-I", include,
                        "-o", folder.appendingPathComponent("libshelf.so").path, template.appendingPathComponent("shelf.c").path]
        try cc.runOneAtATime()
        cc.waitUntilExit()
        try #require(cc.terminationStatus == 0, "cc failed on the C Shelf template")
        return folder
    }

    final class PluginsListPage: PageController {
        required init(values: RouteValues, shell: Shell) {
            super.init(values: values, shell: shell)
            title = "All plugins"
        }
    }

    @Test("a refused manifest is told in a notice naming the plugin and every problem, whose button opens /plugins; fixed under --plugin-dev, the plugin gets its page, menu item, page action and status line")
    func brokenThenFixed() async throws {
        let root = try TestFolder.make("failure-notices")
        let folder = try Self.installShelf(in: root) { manifest in
            manifest["setings"] = manifest["settings"]   // two mistakes: a misspelt key, a wrong type
            manifest["abiVersion"] = "2"
        }
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        shell.notices.defaultDuration = .seconds(3600)
        try shell.route("/", to: PageController.self)
        try shell.route("/plugins", to: PluginsListPage.self)
        try shell.navigate(to: "/")  // as a window does before it tells (a navigation hides a notice)
        let host = PluginHost(bus: shell.bus, services: shell.services,
                              searchPaths: [PluginSearchPath(directory: folder, origin: .commandLine)],
                              settings: PluginSettings(url: root.appendingPathComponent("settings.json")), routes: shell.routes,
                              environment: try TestFolder.environment("plugin-host"),
                              navigate: { _ in }, handleRequest: { _, _ in })
        host.discover()
        let pages = PluginPageRoutes(shell: shell, host: host)
        pages.registerRoutes()
        let menu = PluginMenu(host: host, pages: pages)
        let statusLines = PluginStatusLines(host: host)
        var status: [String] = []
        statusLines.start { status = $0.map { "\($0.item.title): \($0.text)" } }
        let notices = PluginFailureNotices(shell: shell, host: host, pluginsPage: "/plugins")
        notices.start()
        await host.finishStartup()

        // Named by the id its manifest declares; both problems told.
        #expect(await eventually { screen.notice?.text.contains("The plugin “shelf” failed:") == true }, "\(screen.render())")
        let notice = try #require(screen.notice)
        #expect(notice.text.contains("2 problems") && notice.text.contains("\"setings\"") && notice.text.contains("\"abiVersion\""), "\(notice.text)")
        #expect(screen.render().contains(" · (Plugins)]"), "\(screen.render())")
        #expect(menu.menuItems.isEmpty)
        shell.undo()   // Ctrl+Z never presses a button that is not an undo
        #expect(shell.navigator.top?.values.path == "/")
        try screen.pressNoticeButton()
        #expect(shell.navigator.top?.title == "All plugins")
        #expect(screen.notice == nil)

        // The author fixes the manifest; the dev watcher reloads the plugin.
        let reloaded = EventRecorder(bus: shell.bus, pattern: PluginReloaded.name)
        let watcher = PluginDevWatcher(host: host, directory: folder, interval: .milliseconds(100))
        watcher.start()
        defer { watcher.stop() }
        try Data(contentsOf: Self.template.appendingPathComponent("plugin.json")).write(to: folder.appendingPathComponent("plugin.json"))
        #expect(try await reloaded.wait(for: PluginReloaded.name).first?.data["state"] == "loaded")

        #expect(await eventually { pages.registeredRoutes(of: "shelf").map(\.pattern.text) == ["/shelf"] })
        #expect(menu.menuItems.map(\.title) == ["Shelf"], "its page joins the menu")
        try shell.navigate(to: "/shelf")
        #expect(await eventually { screen.page?.shownActions.map(\.label) == ["Add"] }, "\(screen.render())")
        try screen.pressPageAction(try #require(screen.page?.shownActions.first?.id))
        #expect(await eventually { screen.render().contains("Item 1 | 1 of 10") }, "\(screen.render())")
        #expect(await eventually { status == ["Shelf: 1 item"] }, "\(status)")
        // Fixed, it is no longer told; nothing more was posted.
        #expect(screen.notice == nil)
    }

    @Test("several failures while the notice is up join it: one notice names them all")
    func severalJoin() async throws {
        let root = try TestFolder.make("failure-notices-several")
        for (index, name) in ["one", "two"].enumerated() {
            let folder = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(#"{"id": "\#(name)", "name": "Plugin \#(index + 1)", "version": "1", "abiVersion": 2, "library": "libmissing.so"}"#.utf8)
                .write(to: folder.appendingPathComponent("plugin.json"))
        }
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        shell.notices.defaultDuration = .seconds(3600)
        try shell.route("/", to: PageController.self)
        let host = PluginHost(bus: shell.bus, services: shell.services,
                              searchPaths: [PluginSearchPath(directory: root, origin: .commandLine)],
                              settings: PluginSettings(url: root.appendingPathComponent("settings.json")),
                              environment: try TestFolder.environment("plugin-host"),
                              navigate: { _ in }, handleRequest: { _, _ in })
        host.discover()
        try shell.navigate(to: "/")
        let notices = PluginFailureNotices(shell: shell, host: host)
        notices.start()
        #expect(await eventually { screen.notice?.text == "2 plugins did not load: “Plugin 1”, “Plugin 2”" }, "\(screen.render())")
        #expect(screen.notice?.buttonLabel == nil, "no plugins page: no button")
    }
}
