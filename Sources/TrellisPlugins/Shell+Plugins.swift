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
    /// let reports = plugins.loadAll(serviceOptions: ["location": ["interval": 2, "track": trackPath]])
    /// ```
    /// - Parameter handleRequest: receives a plugin's front-controller requests, on the
    ///   plugin's thread.
    /// - Parameter isolation: nil (the default) runs each plugin as ``PluginIsolation`` says;
    ///   a mode runs every plugin so (tests use it to check both).
    public func pluginHost(searchPaths: [PluginSearchPath], settings: PluginSettings = PluginSettings(),
                           isolation: PluginIsolation? = nil,
                           handleRequest: @escaping @Sendable (String, JSONValue) -> Void) -> PluginHost {
        let logger = Logger(trellis: "trellis.plugins")
        let host = PluginHost(
            bus: bus, services: services, searchPaths: searchPaths, settings: settings, isolation: isolation, routes: routes,
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
