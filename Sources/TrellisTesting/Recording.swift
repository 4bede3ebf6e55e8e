import TrellisCore

/// The list behind ``EventRecorder`` and ``Trace``: appended to from any thread, read in
/// order, and awaited until a condition holds.
///
/// A wait registers a waiter; every append checks the waiters' conditions (outside the lock,
/// on a copy of the list) and resumes those that hold. The timeout and the waiting task's
/// cancellation end a wait the same way, by resuming it with `false`.
final class Recording<Element: Sendable>: Sendable {
    private typealias Condition = @Sendable ([Element]) -> Bool

    /// One wait: reserved before it suspends, then waiting, then ended (resumed, or cancelled
    /// before it could wait).
    private enum Slot: Sendable {
        case reserved
        case waiting(Condition, CheckedContinuation<Bool, Never>)
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
            resume(id, with: true)
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
        let satisfied = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.suspend(id, until: condition) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard satisfied else { return nil }
        return all
    }

    private func suspend(_ id: UInt64, until condition: @escaping Condition) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let elements = state.withLock { state -> [Element]? in
                    guard case .reserved? = state.slots[id] else { return nil }
                    state.slots[id] = .waiting(condition, continuation)
                    return state.elements
                }
                guard let elements else { return continuation.resume(returning: false) }
                if condition(elements) { resume(id, with: true) }
            }
        } onCancel: {
            let endedBeforeWaiting = state.withLock { state -> Bool in
                guard case .reserved? = state.slots[id] else { return false }
                state.slots[id] = .ended
                return true
            }
            if !endedBeforeWaiting { resume(id, with: false) }
        }
    }

    /// Resumes wait `id` if it is still waiting (each wait is resumed exactly once).
    private func resume(_ id: UInt64, with value: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard case .waiting(_, let continuation)? = state.slots[id] else { return nil }
            state.slots[id] = .ended
            return continuation
        }
        continuation?.resume(returning: value)
    }
}

/// A wait of ``EventRecorder`` or ``Trace`` that ran out of time: what was awaited, for how
/// long, and what had been recorded by then, so the failure says what happened instead.
public struct WaitTimeout: Error, CustomStringConvertible, Sendable {
    /// What the wait was for, in words ("2 events 'sync:finished'").
    public let expectation: String
    /// How long the wait lasted.
    public let timeout: Duration
    /// What had been recorded when the time ran out (message names, or trace entries).
    public let recorded: [String]

    public init(expectation: String, timeout: Duration, recorded: [String]) {
        self.expectation = expectation
        self.timeout = timeout
        self.recorded = recorded
    }

    public var description: String {
        let shown = recorded.suffix(20)
        let list = shown.isEmpty ? "nothing" : (recorded.count > shown.count ? "…, " : "") + shown.joined(separator: ", ")
        return "waited \(timeout) for \(expectation); recorded \(recorded.count): \(list)"
    }
}
