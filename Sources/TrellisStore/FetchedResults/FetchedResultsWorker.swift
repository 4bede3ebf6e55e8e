import Dispatch
import Logging
import TrellisCore

/// Follows the store's saves for one fetched results controller, off the main thread: on
/// each save it opens a new snapshot, works out the transition from the state the
/// controller will show, and hands it over. Saves that come in while it works are
/// coalesced into the next transition.
final class FetchedResultsWorker: Sendable {
    private struct State: Sendable {
        var current: SnapshotState
        var isScheduled = false
        var observation: StoreObservation?
    }

    private let store: PersistentStore
    private let queue = DispatchQueue(label: "trellis.store.fetched-results")
    private let state: LockedState<State>
    private let deliver: @Sendable (Result<FetchedTransition, any Error>) -> Void
    private let logger = Logger(trellis: "trellis.store.fetched")

    /// Starts following saves from `initial`; `deliver` runs on the worker's queue.
    init(store: PersistentStore, initial: SnapshotState,
         deliver: @escaping @Sendable (Result<FetchedTransition, any Error>) -> Void)
    {
        self.store = store
        self.state = LockedState(State(current: initial))
        self.deliver = deliver
        let observation = store.changeCenter.addObserver { [weak self] _ in self?.schedule() }
        state.withLock { $0.observation = observation }
    }

    /// Stops following saves.
    func stop() {
        // Ended once `withLock` has returned: ending it takes the change center's lock.
        _ = state.withLock { $0.observation.take() }
    }

    /// Looks for saves now, e.g. after another process wrote.
    func schedule() {
        let isNew = state.withLock { state in
            defer { state.isScheduled = true }
            return !state.isScheduled && state.observation != nil
        }
        guard isNew else { return }
        queue.async { [weak self] in self?.process() }
    }

    private func process() {
        let current = state.withLock { state in
            state.isScheduled = false
            return state.current
        }
        do {
            guard let transition = try FetchedDiff.transition(from: current, store: store) else { return }
            state.withLock { $0.current = transition.new }
            deliver(.success(transition))
        } catch {
            logger.error("cannot follow \(current.fetch.entity.name) results: \(error)")
            deliver(.failure(error))
        }
    }
}
