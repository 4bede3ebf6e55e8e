extension Shell {
    /// Navigation requested over the bus, as the seeds' views talk through `$trigger`:
    /// `bus.trigger("route:open", ["path": "/notes/5", "data": …, "external": false])` opens the
    /// path as ``navigate(to:data:external:)`` does, under the same rules (`"external": true`
    /// opens public routes only), and answers `route:navigated`, or `route:not-found` with
    /// `{"path", "error"}` — for a route that does not exist, a bad path, or a route that is
    /// not public. A plugin's `route:open` is its `navigate` call: checked against its
    /// `navigate` permission (public routes without a grant), never against `trigger`.
    ///
    /// ```swift
    /// shell.bus.trigger("route:open", ["path": "/catalog/7"])
    /// ```
    func openRequested(_ event: Event) {
        guard let path = event.data["path"]?.stringValue else {
            logger.notice("route:open without a \"path\": ignored", metadata: ["data": "\(event.data)"])
            return
        }
        do {
            try navigate(to: path, data: event.data["data"] ?? .null, external: event.data["external"]?.boolValue ?? false)
        } catch .notPublic(let path, let pattern) {
            // The navigator answers unknown and bad paths itself; a refusal is answered here.
            bus.trigger(RouteNotFound(path: path, error: NavigationError.notPublic(path: path, pattern: pattern).description))
        } catch {
            logger.info("route:open failed", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }
}
