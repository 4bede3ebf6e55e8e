import TrellisPluginSDK

/// The Shelf plugin: its page, /shelf, lists items; the page's Add button adds one; the status
/// line counts them. Its settings (Preferences, Ctrl+,) name the items and cap their number.
enum Shelf {
    /// plugin.json's "id": the plugin's pages and events are under it (`/shelf`, `shelf:…`).
    static let id = "shelf"
    /// One row per item, each an array of column texts: what the table shows.
    static let rows = LockedState<[[String]]>([])

    static func serve(on host: TrellisHost) {
        let pages = PluginPages(pluginID: id, host: host)
        pages.table("/\(id)", count: { _ in rows.withLock(\.count) },
                    rows: { _, range in rows.withLock { Array($0[range.clamped(to: $0.indices)]) } })
        // plugin.json's "commands": "add" is a button of the page's header bar ("pageActions").
        PluginCommands(pluginID: id, host: host).on("add") { _ in add(on: pages, host: host) }
        showCount(on: host)
    }

    static func add(on pages: PluginPages, host: TrellisHost) {
        let label = host.settings["label"]?.stringValue ?? "Item"
        let limit = host.settings["limit"]?.intValue ?? 10
        pages.update("/\(id)") {
            rows.withLock { rows in
                guard rows.count < limit else { return [] }
                rows.append(["\(label) \(rows.count + 1)", "\(rows.count + 1) of \(limit)"])
                return [.insert(at: rows.count - 1, count: 1)]
            }
        }
        showCount(on: host)
    }

    /// Sets the line of plugin.json's status item "count".
    static func showCount(on host: TrellisHost) {
        let count = rows.withLock(\.count)
        host.bus.trigger("\(id):status", ["item": "count", "text": .string(count == 1 ? "1 item" : "\(count) items")])
    }
}

/// The one C symbol Trellis looks up in the library.
@_cdecl("trellis_plugin_entry")
public func trellisPluginEntry(_ host: UnsafePointer<trellis_host_api>?) -> UnsafePointer<trellis_plugin_info>? {
    TrellisPlugin.entry(host, services: [], setUp: Shelf.serve)
}
