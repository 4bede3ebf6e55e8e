import Foundation
import TrellisCore

/// `/events`: a live log of the event bus, newest first with the local time of each event,
/// filtered by the search field — the inspector app authors debug with.
final class EventsPage: PageController {
    private let log = ArraySource<String>([])

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Event log")
        let container = TableContainer.list(log)
        content = .table(container)
        // Oldest first into row 0: the newest ends on top, as live events then arrive.
        for line in DemoContext.recentEvents(of: shell) { try? log.insert(line, at: TableIndexPath(row: 0)) }
        shell.bus.watchOnMainActor("*", owner: self) { page, event in
            try? page.log.insert(EventsPage.line(for: event, at: Date()), at: TableIndexPath(row: 0))
        }
    }

    /// "14:03:07  message {data}", in local time.
    static func line(for event: Event, at time: Date) -> String {
        let text = event.data.isNull ? event.message : "\(event.message) \(event.data.jsonString)"
        return "\(clock.string(from: time))  \(text)"
    }

    private static let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = .current
        return formatter
    }()
}
