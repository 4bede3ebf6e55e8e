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
    private(set) var lines: [String] = []
    private let limit: Int

    init(bus: EventBus, limit: Int = 500) {
        self.limit = limit
        bus.watchOnMainActor("*", owner: self) { recorder, event in recorder.record(event) }
    }

    private func record(_ event: Event) {
        lines.append(EventsPage.line(for: event, at: Date()))
        if lines.count > limit { lines.removeFirst(lines.count - limit) }
    }
}
