import Foundation
import Synchronization
@testable import TrellisCore

/// An owner for watches in tests: any object will do.
final class WatchOwner: Sendable {}

/// A thread-safe list of what handlers saw, in the order they saw it.
final class EventRecorder: Sendable {
    private let entries = LockedState<[String]>([])

    func record(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}

/// A thread-safe counter.
final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)

    func increment() {
        value.add(1, ordering: .relaxed)
    }

    var count: Int { value.load(ordering: .relaxed) }
}
