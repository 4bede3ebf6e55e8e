import Foundation
import Synchronization
@testable import TrellisCore

/// An owner for watches in tests: any object will do.
final class WatchOwner: Sendable {}

/// A thread-safe counter.
final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)

    func increment() {
        value.add(1, ordering: .relaxed)
    }

    var count: Int { value.load(ordering: .relaxed) }
}
