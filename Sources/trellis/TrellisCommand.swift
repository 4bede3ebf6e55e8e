import ArgumentParser
import Foundation
import Logging
import TrellisCore
import TrellisPlugins
import TrellisDemo
import TrellisGtk
import TrellisHeadless
import TrellisStore

/// Options every way of running the demo shares.
struct ShellOptions: ParsableArguments {
    @Option(name: .long, help: "Replace the catalog with N synthetic rows (\"row 0\", \"row 1\", …).")
    var rows: Int?

    @Option(name: .long, help: ArgumentHelp("The SQLite database to use (default: $XDG_DATA_HOME/trellis/trellis.sqlite).", valueName: "path"))
    var database: String?

    @Option(name: .customLong("plugin-dir"), help: ArgumentHelp("Also look for plugins in DIR (repeatable).", valueName: "DIR"))
    var pluginDirectories: [String] = []

    @Option(name: .customLong("plugin-dev"), help: ArgumentHelp("Load the plugin in folder DIR and reload it whenever its library or plugin.json changes (repeatable).", valueName: "DIR"))
    var pluginsInDevelopment: [String] = []

    @Option(name: .long, help: ArgumentHelp("Sync the notes with the server at URL (https, or http to loopback).", valueName: "URL"))
    var server: String?

    @Flag(name: .customLong("require-confinement"), help: "Refuse the plugins Trellis does not ship when this kernel cannot confine them fully (instead of loading them with a warning).")
    var requireConfinement = false

    func validate() throws {
        if let rows, rows < 0 { throw ValidationError("--rows must be 0 or more, not \(rows)") }
        if let server, serverURL == nil { throw ValidationError("--server needs an absolute http(s) URL, not \(server)") }
    }

    var serverURL: URL? { server.flatMap(Self.serverURL(from:)) }

    /// `text` as a server URL: absolute, http or https, with a host.
    static func serverURL(from text: String) -> URL? {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else { return nil }
        return url
    }

    /// Log messages go to standard error, from `$TRELLIS_LOG_LEVEL` up (default: `level`;
    /// the commands without a window, which print their own errors, take `warning`).
    static func bootstrapLogging(_ level: Logger.Level = .notice) {
        // Read once: every logger made asks for a handler, and the environment is copied per read.
        let level = ProcessEnvironment.current["TRELLIS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// Builds the demo's shell: its routes, state and services.
    /// - Parameters:
    ///   - backgroundSync: sync by itself (the window); without, only when asked.
    ///   - logLevel: the lowest level logged when `$TRELLIS_LOG_LEVEL` does not say.
    @MainActor
    func makeShell(backgroundSync: Bool = true, logLevel: Logger.Level = .notice) async throws -> Shell {
        let shell = try makeShellWithoutPlugins(backgroundSync: backgroundSync, logLevel: logLevel)
        await Self.startPlugins(shell)
        if backgroundSync { DemoSync.startPasses(on: shell) }
        return shell
    }

    /// ``makeShell(backgroundSync:logLevel:)`` with the plugins found but not started: their
    /// routes, commands and settings are known, none of their code runs (`trellis routes`).
    @MainActor
    func makeShellWithoutPlugins(backgroundSync: Bool = true, logLevel: Logger.Level = .notice) throws -> Shell {
        let (shell, plugins) = beginShell(logLevel: logLevel)
        return try finishShell(shell, try prepare(bus: shell.bus, plugins: plugins), backgroundSync: backgroundSync)
    }

    /// The first, main-thread part of start-up: logging, the locale, an empty shell and its
    /// plugin host.
    @MainActor
    func beginShell(logLevel: Logger.Level = .notice) -> (Shell, PluginHost) {
        Self.bootstrapLogging(logLevel)
        // setlocale is not thread-safe: done here, before any other thread starts.
        // The demo's strings are in its own domain, its application id; Trellis's in `trellis`.
        Localization.setUp(localeDirectory: Resources.localeDirectory(), applicationID: DemoWindowApp.applicationID)
        let shell = Shell()
        let settings = PluginSettings()
        if requireConfinement { settings.requireConfinementForThisRun() }
        return (shell, DemoServices.makeHost(on: shell, pluginDirectories: pluginDirectories + pluginsInDevelopment, settings: settings))
    }

    /// The `--plugin-dev` folders' watchers, which run until the process ends.
    private static let developmentWatchers = LockedState<[PluginDevWatcher]>([])

    /// The part of start-up that needs no main thread: the data folder, the catalog, the
    /// store (created, migrated and seeded on a first launch) and, `findingPlugins`, the
    /// plugins' manifests (``findPlugins(_:dataDirectory:)``; the plugins start in
    /// ``startDeferred(_:)``). The window runs it on another thread while GTK starts.
    func prepare(bus: EventBus, plugins: PluginHost, findingPlugins: Bool = true) throws -> PreparedData {
        let data = try Resources.dataDirectory()
        let catalog = try Resources.loadCatalog(from: data)
        let store = try DemoStore.open(at: database.map { URL(fileURLWithPath: $0) }, dataDirectory: data, bus: bus)
        if findingPlugins { findPlugins(plugins, dataDirectory: data) }
        return PreparedData(dataDirectory: data, catalog: catalog, store: store, pluginsFound: findingPlugins)
    }

    /// Finds the plugins and reads their manifests, running none of their code; follows the
    /// plugin settings file and watches the `--plugin-dev` folders. On any thread.
    func findPlugins(_ plugins: PluginHost, dataDirectory: URL) {
        DemoServices.discoverPlugins(plugins, dataDirectory: dataDirectory)
        plugins.followSettings()  // trellis plugins --disable/--enable apply to this running app
        for folder in pluginsInDevelopment {
            // Ten looks a second: a rebuild shows about a tenth of a second after the linker is done.
            let watcher = PluginDevWatcher(host: plugins, directory: URL(fileURLWithPath: folder), interval: .milliseconds(100))
            watcher.start()
            // Kept for the process's life: a watcher released stops watching.
            Self.developmentWatchers.withLock { $0.append(watcher) }
        }
    }

    /// The last, main-actor part: pages and routes, the built-in services, what the plugins
    /// found contribute (``DemoServices/finish(on:)``; else ``joinPlugins(_:dataDirectory:)``
    /// adds it later), sync (whose passes wait for ``startDeferred(_:)``).
    @MainActor
    func finishShell(_ shell: Shell, _ prepared: PreparedData, backgroundSync: Bool = true) throws -> Shell {
        try DemoApp.install(on: shell, catalog: prepared.catalog, store: prepared.store, syntheticRows: rows)
        if prepared.pluginsFound { DemoServices.finish(on: shell) }
        try DemoSync.start(on: shell, store: prepared.store, server: serverURL, background: backgroundSync, passesLater: true)
        return shell
    }

    /// For a start that left the plugins unfound (the window opening on the app's own home
    /// page): finds them on another thread, then adds their pages, menu items, notices and
    /// status items to the shell (``DemoServices/finish(on:)``).
    @MainActor
    func joinPlugins(_ shell: Shell, dataDirectory: URL) async {
        guard let host = shell.resolve(PluginHost.self) else { return }
        let options = self
        await withCheckedContinuation { (found: CheckedContinuation<Void, Never>) in
            // Reading files: a dispatch worker, not one of Swift concurrency's few threads.
            DispatchQueue.global(qos: .userInitiated).async {
                options.findPlugins(host, dataDirectory: dataDirectory)
                found.resume()
            }
        }
        DemoServices.finish(on: shell)
    }

    /// What start-up leaves until last (the window: until its first frame is on screen, so that
    /// no plugin process competes with GTK for the processor): starts the plugins
    /// (`PluginHost.finishStartup()`), then begins the sync's passes, which the activity
    /// indicator (a plugin's) then shows from the first.
    @MainActor
    static func startDeferred(_ shell: Shell) async {
        await startPlugins(shell)
        DemoSync.startPasses(on: shell)
    }

    /// Starts the plugins that start-up found (`PluginHost.finishStartup()`).
    @MainActor
    static func startPlugins(_ shell: Shell) async {
        guard let host = shell.resolve(PluginHost.self) else { return }
        await host.finishStartup()
        DemoServices.checkActivityService(on: shell)
    }
}

/// What ``ShellOptions/prepare(bus:plugins:findingPlugins:)`` reads and opens off the main thread.
struct PreparedData: Sendable {
    let dataDirectory: URL
    let catalog: [String]
    let store: PersistentStore
    /// Whether the plugins were found (``ShellOptions/findPlugins(_:dataDirectory:)``).
    let pluginsFound: Bool
}

/// Work started on a dispatch worker now and waited for later: start-up overlaps it with GTK's
/// own initialisation (display, GL, theme), which takes the main thread for tens of ms. (It opens
/// the store and reads files: blocking work, kept off Swift concurrency's few threads.)
final class BackgroundWork<Value: Sendable>: Sendable {
    private let outcome = LockedState<Result<Value, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [outcome, finished] in
            let result = Result { try work() }
            outcome.withLock { $0 = result }
            finished.signal()
        }
    }

    /// Waits for the work, then returns its value or throws its error.
    func wait() throws -> Value {
        finished.wait()
        finished.signal()  // for the next caller
        return try outcome.withLock { $0! }.get()
    }
}

@main
struct Trellis: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "The Trellis demo application: a plugin-based application shell for Linux.",
        version: DemoWindowApp.version,
        subcommands: [Open.self, Routes.self, Plugins.self, SyncNotes.self, PluginGroup.self, AppGroup.self],
        defaultSubcommand: Open.self
    )

    /// Refuses arguments that are not UTF-8 (see ``InvalidArgumentEncoding``), then runs the command.
    static func main() {
        if let problem = InvalidArgumentEncoding.first() { exit(withError: problem) }
        main(nil)
    }
}

/// `trellis [PATH]`: opens the window (or, with `--headless`, prints the page as text).
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the window at a route path (the default command)."
    )

    @Argument(help: "The route path to open, e.g. /catalog or /catalog/5 (default: the hub, /; headless: /catalog). Only public routes may be opened from outside. When Trellis is running already, its window opens the path.")
    var path: String?

    @Option(name: .long, help: ArgumentHelp("Act on a push-notification payload ({\"aps\": {\"alert\", \"badge\", \"sound\", \"content-available\"}}): show it, open its show-view path, set the badge, request a sync.", valueName: "file.json"))
    var notification: String?

    @Option(name: .long, help: ArgumentHelp("Register on the session bus under this id, as a single instance even with --automation (tests).", visibility: .hidden))
    var applicationId: String?

    @OptionGroup var shellOptions: ShellOptions

    @Flag(name: .long, help: "Print the page at PATH as text on standard output and exit, with no window. With --server, sync before and after.")
    var headless = false

    @Option(name: .long, help: ArgumentHelp("With --headless: run the steps of FILE (- for standard input) instead of printing PATH: navigate, back, fill, press, select, toggle, type, expect, print, undo, sync; see the README.", valueName: "FILE"))
    var script: String?

    @Flag(name: .long, help: "Quit right after the first frame is painted, printing its moment as `first-frame-monotonic-us: N` (CLOCK_MONOTONIC, µs) on standard output (tests, benchmarks); the plugins, which start after that frame, do not start.")
    var exitAfterFirstFrame = false

    @Flag(name: .long, help: ArgumentHelp("Read test commands from standard input.", visibility: .hidden))
    var automation = false

    func run() throws {
        let payload = try notification.map { file throws(NotificationPayloadError) in
            try PushNotification(contentsOf: URL(fileURLWithPath: file))
        }
        if headless || script != nil {
            let script = try script.map(HeadlessRun.loadScript)
            let (options, path) = (shellOptions, self.path)
            try runOnMainActor {
                try await HeadlessRun(options: options, path: path, notification: payload, script: script).run()
            }
            return
        }
        // The hub: every section one step away, no Back arrow on the first screen.
        let path = self.path ?? "/"
        // Before the start-up thread below reads the environment.
        RendererChoice.apply()
        // Opening on the app's home page ("/", which no plugin can take), the window needs
        // nothing of the plugins for its first frame: they are found after it (50 plugins'
        // manifests took the second core from GTK's threads). Another path or a notification
        // may open a plugin's page: then they are found first, as for every other command.
        let pluginsFirst = path != "/" || payload != nil
        let (status, failure) = MainActor.assumeIsolated { () -> (Int32, (any Error)?) in
            let (shell, plugins) = shellOptions.beginShell()
            let bus = shell.bus
            let options = shellOptions
            // The store opens while GTK starts; the window is built once both are done.
            let preparing = BackgroundWork { try options.prepare(bus: bus, plugins: plugins, findingPlugins: pluginsFirst) }
            let app = DemoWindowApp(shell: shell, path: path, exitAfterFirstFrame: exitAfterFirstFrame,
                                    automation: automation, applicationID: applicationId,
                                    finishShell: { _ = try options.finishShell(shell, try preparing.wait()) },
                                    joinPlugins: {
                                        guard let prepared = try? preparing.wait(), !prepared.pluginsFound else { return }
                                        await options.joinPlugins(shell, dataDirectory: prepared.dataDirectory)
                                    },
                                    afterFirstFrame: { await ShellOptions.startDeferred(shell) })
            app.launch = LaunchRequest(path: self.path, notification: payload)
            let status = app.run()
            // A second instance hands over without opening a window: let the start-up
            // thread finish before the process exits under it.
            _ = try? preparing.wait()
            return (status, app.startFailure)
        }
        if let failure { throw failure }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `trellis routes`: the route table.
struct Routes: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "routes", abstract: "Print the route table: pattern, target, owner.")

    @OptionGroup var shellOptions: ShellOptions

    func run() throws {
        try MainActor.assumeIsolated {
            let shell = try shellOptions.makeShellWithoutPlugins()
            print(RouteListing.table(shell.routes.entries))
        }
    }
}

