import Synchronization
import TrellisCore

/// Watches an event bus synchronously and remembers every event it receives.
final class EventRecorder: Sendable {
    private let events = LockedState<[Event]>([])

    init(bus: EventBus, pattern: String = "store:*") {
        bus.watch(pattern, owner: self) { recorder, event in recorder.events.withLock { $0.append(event) } }
    }

    var all: [Event] { events.withLock { $0 } }
}
