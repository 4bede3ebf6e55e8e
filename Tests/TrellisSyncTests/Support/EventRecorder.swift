import Synchronization
import TrellisCore

// LockedState, not Mutex: ThreadSanitizer does not see Mutex's lock on Linux.
/// Watches an event bus synchronously and remembers every event matching a pattern.
final class EventRecorder: Sendable {
    private let events = LockedState<[Event]>([])

    init(bus: EventBus, pattern: String = "*") {
        bus.watch(pattern, owner: self) { recorder, event in recorder.events.withLock { $0.append(event) } }
    }

    var all: [Event] { events.withLock { $0 } }

    /// The names of the recorded events, in order.
    var messages: [String] { all.map(\.message) }

    /// How many events named `message` were recorded.
    func count(_ message: String) -> Int { all.filter { $0.message == message }.count }

    /// Forgets what was recorded so far.
    func clear() { events.withLock { $0.removeAll() } }
}
