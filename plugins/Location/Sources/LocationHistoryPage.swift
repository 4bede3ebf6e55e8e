import Foundation
import TrellisPluginSDK

/// The plugin's page `/location`: every position reported since the plugin started,
/// newest first, as a live table (its manifest's `"routes"`), with a Clear button (its command
/// `clear-history`, placed on the page's actions). Positions are kept as numbers and made into
/// text only for the rows a page asks for, with the `decimals` setting of that moment: an
/// update costs a few words of memory, shown or not.
enum LocationHistoryPage {
    static let pattern = "/location"
    /// The most positions kept.
    static let limit = 10_000

    private struct Position: Sendable {
        let time: Date, latitude: Double, longitude: Double, accuracy: Double

        init(_ data: JSONValue) {
            time = (data["timestamp"]?.doubleValue).map { Date(timeIntervalSince1970: $0) } ?? Date()
            latitude = data["latitude"]?.doubleValue ?? 0
            longitude = data["longitude"]?.doubleValue ?? 0
            accuracy = data["accuracy"]?.doubleValue ?? 0
        }

        func columns(decimals: Int) -> [String] {
            [time.formatted(date: .omitted, time: .standard),
             String(format: "%.\(decimals)f, %.\(decimals)f", latitude, longitude),
             String(format: "±%.0f m", accuracy)]
        }
    }

    static func serve(on host: TrellisHost) {
        let history = LockedState<[Position]>([])
        let pages = PluginPages(pluginID: "location", host: host)
        pages.table(pattern, count: { _ in history.withLock(\.count) }, rows: { _, range in
            let decimals = LocationService.decimals(host)
            return history.withLock { Array($0[range.clamped(to: $0.indices)]) }.map { $0.columns(decimals: decimals) }
        })
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
            let position = Position(event.data)
            pages.update(pattern) {
                history.withLock { history -> [RowChange] in
                    history.insert(position, at: 0)
                    guard history.count > limit else { return [.insert(at: 0, count: 1)] }
                    history.removeLast()
                    return [.insert(at: 0, count: 1), .remove(at: limit, count: 1)]
                }
            }
        }
    }
}
