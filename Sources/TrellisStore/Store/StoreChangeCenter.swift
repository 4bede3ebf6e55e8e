import Foundation
import TrellisCore

/// Remembers what recent saves changed, numbered by the store's commit sequence, and tells
/// observers (fetched results) that a save happened.
///
/// A save records its changes under its sequence number *inside* its transaction, before
/// the commit, so any snapshot that sees a commit can find its changes here; a save that
/// fails to commit discards its entry.
final class StoreChangeCenter: Sendable {
    private struct State: Sendable {
        var log: [(sequence: Int, changes: StoreChanges)] = []
        var observers: [UUID: @Sendable (Int) -> Void] = [:]
    }

    /// Saves remembered; an observer further behind than this reloads instead of diffing.
    static let capacity = 512

    private let state = LockedState(State())

    func record(_ changes: StoreChanges, sequence: Int) {
        state.withLock { state in
            state.log.append((sequence, changes))
            if state.log.count > Self.capacity { state.log.removeFirst(state.log.count - Self.capacity) }
        }
    }

    func discard(sequence: Int) {
        state.withLock { state in state.log.removeAll { $0.sequence == sequence } }
    }

    /// The changes of the saves numbered `start + 1 ... end`, merged; `nil` when one of
    /// them is not remembered (too old, or made by another process).
    func changes(after start: Int, through end: Int) -> StoreChanges? {
        guard end > start else { return StoreChanges() }
        return state.withLock { state in
            let entries = state.log.filter { $0.sequence > start && $0.sequence <= end }
            guard entries.count == end - start else { return nil }
            var merged = StoreChanges()
            for entry in entries.sorted(by: { $0.sequence < $1.sequence }) { merged.merge(entry.changes) }
            return merged
        }
    }

    /// Calls `callback` with the sequence number after every save, on the saving thread,
    /// until the returned token is released.
    func addObserver(_ callback: @escaping @Sendable (Int) -> Void) -> StoreObservation {
        let id = UUID()
        state.withLock { $0.observers[id] = callback }
        // The removed callback is released once `withLock` has returned: its captures may end with it.
        return StoreObservation { [weak self] in _ = self?.state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    func notify(sequence: Int) {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer(sequence) }
    }
}

/// Keeps a store observer registered while it is alive.
final class StoreObservation: Sendable {
    private let cancel: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) { self.cancel = cancel }

    deinit { cancel() }
}
