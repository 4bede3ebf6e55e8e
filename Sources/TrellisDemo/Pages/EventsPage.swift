import Foundation
import TrellisCore

/// `/events`: a live log of the event bus, newest first, filtered by the search field — the
/// inspector app authors debug with.
final class EventsPage: PageController {
    private let log = ArraySource<String>([])

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Event log")
        let container = TableContainer.list(log)
        content = .table(container)
        for line in DemoContext.recentEvents(of: shell).reversed() { try? log.insert(line, at: TableIndexPath(row: 0)) }
        shell.bus.watchOnMainActor("*", owner: self) { page, event in
            try? page.log.insert(EventsPage.line(for: event), at: TableIndexPath(row: 0))
        }
    }

    static func line(for event: Event) -> String {
        event.data.isNull ? event.message : "\(event.message) \(event.data.jsonString)"
    }
}
