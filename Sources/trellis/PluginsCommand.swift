import ArgumentParser
import Foundation
import Logging
import TrellisCore
import TrellisDemo
import TrellisPlugins

/// `trellis plugins`: every plugin found, with its version, state, where it was found, the
/// reason of any failure and its permissions — the text form of the `/plugins` page.
/// `--disable ID` and `--enable ID` change the remembered settings first, `--approve ID` and
/// `--approve-all` approve what plugins installed by the user ask for, and
/// `--[no-]require-confinement` remembers whether a plugin the kernel cannot confine fully is
/// refused. Each plugin's lines say what confines it and what this kernel lacks.
///
/// Listing reads manifests, files and settings only: no plugin code runs. `--check` also loads
/// every enabled plugin, each in a process of its own (shipped ones included), so a plugin that
/// crashes or hangs shows as failed, with how, and the listing goes on; the command then exits 1,
/// naming the plugins that failed on standard error. A page the app would refuse is listed as
/// refused, with why.
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

    @Option(help: ArgumentHelp("Approve what plugin ID asks for (as listed), so that it loads (repeatable).", valueName: "ID"))
    var approve: [String] = []

    @Flag(name: .customLong("approve-all"), help: "Approve what every plugin waiting for approval asks for (scripts and tests).")
    var approveAll = false

    @Flag(name: .customLong("require-confinement"), inversion: .prefixedNo,
          help: "Remember whether plugins Trellis does not ship are refused when this kernel cannot confine them fully.")
    var requireConfinement: Bool?

    func run() throws {
        let logger = {
            var logger = Logger(label: "trellis.plugins") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = ProcessEnvironment.current["TRELLIS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
            return logger
        }()
        let settings = PluginSettings()
        try settings.load()
        for id in disable { try settings.setEnabled(id, false) }
        for id in enable { try settings.setEnabled(id, true) }
        if let requireConfinement { try settings.setRequiresConfinement(requireConfinement) }
        let bus = EventBus(logger: logger)
        let host = PluginHost(
            bus: bus, services: ServiceRegistry(bus: bus, logger: logger),
            searchPaths: PluginSearchPath.standard(pluginDirectories: pluginDirectories), settings: settings,
            navigate: { request in logger.notice("a plugin asked to navigate to \(request.path); there is no window here") },
            handleRequest: { command, _ in logger.notice("a plugin sent request \(command); there is no window here") },
            logger: logger)
        if approveAll || !approve.isEmpty {
            let waiting = host.survey().filter { if case .awaitingApproval = $0.state { true } else { false } }
            for id in approveAll ? waiting.map(\.id) : approve {
                guard let report = waiting.first(where: { $0.id == id }), let manifest = report.manifest else {
                    throw ValidationError("no plugin \"\(PluginReport.escaped(id))\" waits for approval")
                }
                try settings.approvals.approve(manifest, file: report.directory.appendingPathComponent(PluginManifest.fileName))
            }
        }
        let appRoutes = MainActor.assumeIsolated { DemoApp.routePatterns }
        if check {
            let reports = try runOnMainActor {
                // Plugins waiting for an activation event are tried too.
                for report in await host.loadAll() where report.state.isWaiting { await host.activate(report.id) }
                return host.reports
            }
            print(PluginReport.table(reports, appRoutes: appRoutes))
            // A check that found a plugin failing fails: scripts and CI see it.
            let failed = reports.filter { $0.state.failure != nil }
            if !failed.isEmpty {
                FileHandle.standardError.write(Data("trellis: \(failed.count) of \(reports.count) plugins failed: \(failed.map { PluginReport.escaped($0.id) }.joined(separator: ", "))\n".utf8))
                throw ExitCode(1)
            }
        } else {
            print(PluginReport.table(host.survey(), appRoutes: appRoutes))
            print("(manifests only: no plugin code ran; \"found\" plugins load at start — trellis plugins --check tries them)")
        }
    }
}
