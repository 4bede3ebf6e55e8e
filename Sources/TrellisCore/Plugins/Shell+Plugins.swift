import Logging

extension Shell {
    /// A plugin host for this shell: plugins share its bus and service registry, and a plugin's
    /// navigation request drives its navigator on the main actor. A plugin opens public routes
    /// only, as a deep link from outside does: a request for any other route is refused and
    /// logged, as is an unknown one (which triggers `route:not-found`, as any navigation does).
    ///
    /// ```swift
    /// let plugins = shell.pluginHost(searchPaths: PluginSearchPath.standard(pluginDirectories: dirs),
    ///                                handleRequest: { command, parameters in frontController.handle(command, parameters) })
    /// let reports = plugins.loadAll(serviceOptions: ["location": ["interval": 2, "track": trackPath]])
    /// ```
    /// - Parameter handleRequest: receives a plugin's front-controller requests, on the
    ///   plugin's thread.
    public func pluginHost(searchPaths: [PluginSearchPath], settings: PluginSettings = PluginSettings(),
                           handleRequest: @escaping @Sendable (String, JSONValue) -> Void) -> PluginHost {
        let logger = Logger(trellis: "trellis.plugins")
        return PluginHost(
            bus: bus, services: services, searchPaths: searchPaths, settings: settings,
            navigate: { [weak self] path, data in
                Task { @MainActor in
                    guard let self else { return }
                    do { try self.navigate(to: path, data: data, external: true) } catch {
                        logger.notice("a plugin's navigation failed", metadata: ["path": "\(path)", "error": "\(error)"])
                    }
                }
            },
            handleRequest: handleRequest, logger: logger)
    }
}
