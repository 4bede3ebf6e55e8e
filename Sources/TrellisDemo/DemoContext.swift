import Foundation
import TrellisCore

/// How the demo's pages reach the app's state through the shell's environment.
@MainActor
enum DemoContext {
    static func model(of shell: Shell?) -> DemoModel? { shell?.resolve(DemoModel.self) }

    static func recentEvents(of shell: Shell?) -> [String] { shell?.resolve(EventHistory.self)?.lines ?? [] }
}

/// Keeps the last bus events since start, so the event log page shows what happened before
/// it was opened.
@MainActor
final class EventHistory {
    /// The events with when they came, formatted only when the page asks: start-up alone
    /// triggers a few dozen, before the first frame.
    private var entries: [(event: Event, time: Date)] = []
    private let limit: Int

    /// One line per event, oldest first ("14:03:07  message {data}").
    var lines: [String] { entries.map { EventsPage.line(for: $0.event, at: $0.time) } }

    init(bus: EventBus, limit: Int = 500) {
        self.limit = limit
        bus.watchOnMainActor("*", owner: self) { recorder, event in recorder.record(event) }
    }

    private func record(_ event: Event) {
        entries.append((event, Date()))
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }
}
