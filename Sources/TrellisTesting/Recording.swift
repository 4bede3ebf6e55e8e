import TrellisCore

/// The list behind ``EventRecorder`` and ``Trace``: appended to from any thread, read in
/// order, and awaited until a condition holds.
///
/// A wait registers a waiter; every append checks the waiters' conditions (outside the lock,
/// on a copy of the list) and resumes those that hold with that copy. The timeout and the
/// waiting task's cancellation end a wait the same way, by resuming it with `nil`.
final class Recording<Element: Sendable>: Sendable {
    private typealias Condition = @Sendable ([Element]) -> Bool

    /// One wait: reserved before it suspends, then waiting, then ended (resumed, or cancelled
    /// before it could wait).
    private enum Slot: Sendable {
        case reserved
        case waiting(Condition, CheckedContinuation<[Element]?, Never>)
        case ended
    }

    private struct State: Sendable {
        var elements: [Element] = []
        var slots: [UInt64: Slot] = [:]
        var lastSlot: UInt64 = 0

        /// The conditions of the waits now waiting, by wait.
        var waitingConditions: [(UInt64, Condition)] {
            slots.compactMap { id, slot in
                if case .waiting(let condition, _) = slot { return (id, condition) }
                return nil
            }
        }
    }

    private let state = LockedState(State())

    /// Everything recorded so far, in order.
    var all: [Element] { state.withLock { $0.elements } }

    func append(_ element: Element) {
        let (elements, waiting) = state.withLock { state in
            state.elements.append(element)
            return (state.elements, state.waitingConditions)
        }
        for (id, condition) in waiting where condition(elements) {
            resume(id, with: elements)
        }
    }

    func removeAll() {
        state.withLock { $0.elements.removeAll() }
    }

    /// Waits until `condition` holds for the list, at most `timeout`; returns the list that
    /// satisfied it, or `nil` when the time ran out (or the waiting task was cancelled).
    func wait(until condition: @escaping @Sendable ([Element]) -> Bool, timeout: Duration) async -> [Element]? {
        let id = state.withLock { state in
            state.lastSlot += 1
            state.slots[state.lastSlot] = .reserved
            return state.lastSlot
        }
        defer { state.withLock { _ = $0.slots.removeValue(forKey: id) } }
        return await withTaskGroup(of: [Element]?.self) { group in
            group.addTask { await self.suspend(id, until: condition) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private func suspend(_ id: UInt64, until condition: @escaping Condition) async -> [Element]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let elements = state.withLock { state -> [Element]? in
                    guard case .reserved? = state.slots[id] else { return nil }
                    state.slots[id] = .waiting(condition, continuation)
                    return state.elements
                }
                guard let elements else { return continuation.resume(returning: nil) }
                if condition(elements) { resume(id, with: elements) }
            }
        } onCancel: {
            let endedBeforeWaiting = state.withLock { state -> Bool in
                guard case .reserved? = state.slots[id] else { return false }
                state.slots[id] = .ended
                return true
            }
            if !endedBeforeWaiting { resume(id, with: nil) }
        }
    }

    /// Resumes wait `id` if it is still waiting (each wait is resumed exactly once).
    private func resume(_ id: UInt64, with value: [Element]?) {
        let continuation = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
            guard case .waiting(_, let continuation)? = state.slots[id] else { return nil }
            state.slots[id] = .ended
            return continuation
        }
        continuation?.resume(returning: value)
    }
}
