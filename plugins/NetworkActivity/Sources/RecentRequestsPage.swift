import TrellisPluginSDK

/// The plugin's page `/network`: the last requests announced on the bus (TrellisSync's
/// `network:on` / `network:off` carry `method`, `url`, `attempt` and, when done, `outcome`),
/// newest first: method, URL, outcome and duration, live.
enum RecentRequestsPage {
    static let pattern = "/network"
    /// The most requests kept.
    static let limit = 500

    private struct Request: Hashable, Sendable {
        let method: String, url: String, attempt: Int

        /// The request an event's data names.
        init?(_ data: JSONValue) {
            guard let method = data["method"]?.stringValue, let url = data["url"]?.stringValue else { return nil }
            (self.method, self.url, self.attempt) = (method, url, data["attempt"]?.intValue ?? 1)
        }
    }

    static func serve(on host: TrellisHost) {
        let rows = LockedState<[[String]]>([])
        let started = LockedState<[Request: ContinuousClock.Instant]>([:])
        let pages = PluginPages(pluginID: "network-activity", host: host)
        pages.table(pattern, count: { _ in rows.withLock(\.count) },
                    rows: { _, range in rows.withLock { Array($0[range.clamped(to: $0.indices)]) } })
        host.bus.watch("network:on", owner: pages) { event in
            if let request = Request(event.data) { started.withLock { $0[request] = .now } }
        }
        host.bus.watch("network:off", owner: pages) { event in
            guard let request = Request(event.data) else { return }
            let duration = started.withLock { $0.removeValue(forKey: request) }.map { ContinuousClock.now - $0 }
            let milliseconds = duration.map { "\(Int(($0 / .milliseconds(1)).rounded())) ms" } ?? "?"
            let row = [request.method, request.url, event.data["outcome"]?.stringValue ?? "?", milliseconds]
            pages.update(pattern) {
                rows.withLock { rows -> [RowChange] in
                    rows.insert(row, at: 0)
                    guard rows.count > limit else { return [.insert(at: 0, count: 1)] }
                    rows.removeLast()
                    return [.insert(at: 0, count: 1), .remove(at: limit, count: 1)]
                }
            }
        }
    }
}
