import TrellisCore
import Logging

extension Shell {
    /// A plugin host for this shell: plugins share its bus and service registry, and a plugin's
    /// navigation request drives its navigator on the main actor. A plugin opens public routes,
    /// as a deep link from outside does, and the routes its manifest's `navigate` permission
    /// grants: a request for any other route is denied (`TRELLIS_ERROR_DENIED`) and logged; an
    /// unknown one fails as any navigation does (`route:not-found`).
    ///
    /// ```swift
    /// let plugins = shell.pluginHost(searchPaths: PluginSearchPath.standard(pluginDirectories: dirs),
    ///                                handleRequest: { command, parameters in frontController.handle(command, parameters) })
    /// let reports = await plugins.loadAll(serviceOptions: ["location": ["interval": 2, "track": .string(trackPath)]])
    /// ```
    ///
    /// The host is registered as a source of ``Shell/pendingWork``: a front end that settles
    /// waits for the plugins starting and for their answers to events.
    /// - Parameters:
    ///   - handleRequest: receives a plugin's front-controller requests, from its connection's
    ///     task (hop to the main actor to submit them).
    ///   - deadlines: how long a plugin may take (see ``PluginDeadlines``).
    ///   - clock: the time the host's deadlines and back-off run on (a test clock in tests).
    ///   - environment: where the plugins' data and temporary folders are found from (see
    ///     ``PluginHost``); the process's own by default.
    public func pluginHost(searchPaths: [PluginSearchPath], settings: PluginSettings = PluginSettings(),
                           deadlines: PluginDeadlines = PluginDeadlines(), clock: PluginClock = .continuous,
                           environment: [String: String] = ProcessEnvironment.current,
                           handleRequest: @escaping @Sendable (String, JSONValue) -> Void) -> PluginHost {
        let logger = Logger(trellis: "trellis.plugins")
        let host = PluginHost(
            bus: bus, services: services, searchPaths: searchPaths, settings: settings, routes: routes,
            deadlines: deadlines, clock: clock, environment: environment,
            navigate: { [weak self] request in
                Task { @MainActor in
                    guard let self else { return }
                    do { try self.navigate(to: request.path, data: request.data, external: request.isExternal) } catch {
                        logger.notice("a plugin's navigation failed",
                                      metadata: ["plugin": "\(request.plugin)", "path": "\(request.path)", "error": "\(error)"])
                    }
                }
            },
            handleRequest: handleRequest, logger: logger)
        addPendingWork(host)
        return host
    }
}
