import Synchronization
import TrellisCore
import TrellisStore

/// A `StoreEventSink` that remembers every event it is given.
final class EventRecorder: StoreEventSink {
    private let events = Mutex<[(message: String, data: JSONValue)]>([])

    func trigger(_ message: String, _ data: JSONValue) {
        events.withLock { $0.append((message, data)) }
    }

    var all: [(message: String, data: JSONValue)] { events.withLock { $0 } }
}
