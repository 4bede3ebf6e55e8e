import Foundation
import TrellisPluginSDK

/// The plugin's page `/location`: every position reported since the plugin started,
/// newest first, as a live table (its manifest's `"routes"`), with a Clear button (its command
/// `clear-history`, placed on the page's actions).
enum LocationHistoryPage {
    static let pattern = "/location"
    /// The most positions kept.
    static let limit = 10_000

    static func coordinates(_ data: JSONValue, decimals: Int) -> String {
        String(format: "%.\(decimals)f, %.\(decimals)f", data["latitude"]?.doubleValue ?? 0, data["longitude"]?.doubleValue ?? 0)
    }

    static func serve(on host: TrellisHost) {
        let history = LockedState<[[String]]>([])
        let pages = PluginPages(pluginID: "location", host: host)
        pages.table(pattern, count: { _ in history.withLock(\.count) },
                    rows: { _, range in history.withLock { Array($0[range.clamped(to: $0.indices)]) } })
        let commands = PluginCommands(pluginID: "location", host: host)
        commands.on("clear-history") { _ in
            pages.update(pattern) {
                history.withLock { history -> [RowChange] in
                    defer { history.removeAll() }
                    return history.isEmpty ? [] : [.remove(at: 0, count: history.count)]
                }
            }
        }
        host.bus.watch(LocationService.update, owner: pages) { event in
            let time = (event.data["timestamp"]?.doubleValue).map { Date(timeIntervalSince1970: $0) } ?? Date()
            let row = [time.formatted(date: .omitted, time: .standard),
                       coordinates(event.data, decimals: LocationService.decimals(host)),
                       String(format: "±%.0f m", event.data["accuracy"]?.doubleValue ?? 0)]
            pages.update(pattern) {
                history.withLock { history -> [RowChange] in
                    history.insert(row, at: 0)
                    guard history.count > limit else { return [.insert(at: 0, count: 1)] }
                    history.removeLast()
                    return [.insert(at: 0, count: 1), .remove(at: limit, count: 1)]
                }
            }
        }
    }
}
