import ArgumentParser
import Foundation
import Logging
import TrellisCore
import TrellisPlugins

/// `trellis plugins`: every plugin found, with its version, state, where it was found, the
/// reason of any failure and its permissions — the text form of the `/plugins` page.
/// `--disable ID` and `--enable ID` change the remembered settings first.
///
/// Listing reads manifests, files and settings only: no plugin code runs. `--check` also loads
/// every enabled plugin, each in a process of its own (shipped ones included), so a plugin that
/// crashes or hangs shows as failed, with how, and the listing goes on.
struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the plugins found: id, version, state, origin, and why any failed to load."
    )

    @Option(name: .customLong("plugin-dir"), help: ArgumentHelp("Also look for plugins in DIR (repeatable).", valueName: "DIR"))
    var pluginDirectories: [String] = []

    @Option(help: ArgumentHelp("Disable plugin ID from now on (repeatable).", valueName: "ID"))
    var disable: [String] = []

    @Option(help: ArgumentHelp("Enable plugin ID from now on (repeatable).", valueName: "ID"))
    var enable: [String] = []

    @Flag(help: "Also load every enabled plugin, each in a process of its own, and say whether it loads (without it, no plugin code runs).")
    var check = false

    func run() throws {
        let logger = {
            var logger = Logger(label: "trellis.plugins") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = ProcessInfo.processInfo.environment["TRELLIS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
            return logger
        }()
        let settings = PluginSettings()
        try settings.load()
        for id in disable { try settings.setEnabled(id, false) }
        for id in enable { try settings.setEnabled(id, true) }
        let bus = EventBus(logger: logger)
        let host = PluginHost(
            bus: bus, services: ServiceRegistry(bus: bus, logger: logger),
            searchPaths: PluginSearchPath.standard(pluginDirectories: pluginDirectories), settings: settings,
            isolation: .process,
            navigate: { request in logger.notice("a plugin asked to navigate to \(request.path); there is no window here") },
            handleRequest: { command, _ in logger.notice("a plugin sent request \(command); there is no window here") },
            logger: logger)
        if check {
            // Plugins waiting for an activation event are tried too.
            for report in host.loadAll() where report.state.isWaiting { host.activate(report.id) }
            print(PluginReport.table(host.reports))
        } else {
            print(PluginReport.table(host.survey()))
            print("(manifests only: no plugin code ran; \"found\" plugins load at start — trellis plugins --check tries them)")
        }
    }
}
