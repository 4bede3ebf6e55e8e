import TrellisCore
import Foundation

/// The messages a plugin process sent (``PluginMessage``s; any `Message` in the tests),
/// handled in the order they came and one at a time.
///
/// Who handles them, as in the shell's process: while a thread waits for one of the plugin's
/// answers (a service start, say), that thread handles them, so an event the plugin triggers
/// during its start reaches its watchers on the starting thread before the start returns, as
/// an in-process plugin's does. Otherwise the thread that reads the socket handles them itself
/// (``add(_:awaitedBy:handlingItHereIfIdle:)``): waking another thread would double the time
/// a plugin's event takes to reach its watchers. When that thread would wait for the plugin
/// itself (a watcher stopping the plugin's service), or when a thread waiting for an answer
/// finds it stuck in a handler, `PluginProcess` gives the reading to a new thread. A worker of
/// the inbox's own handles what no one else does. A handler that waits for an answer itself
/// handles the messages after its own meanwhile (a nested call).
/// An answer is handled in turn, after what the plugin sent before it (so a service's events
/// end when its stop returns, as in process), unless a handler on another thread has stayed on
/// one message for ``stuckAfter`` of the waiting thread's own wait: that handler may be
/// waiting for the thread the answer releases, which then takes its answer out of turn. (A
/// handler on one message since before the wait began is given the whole `stuckAfter`: it
/// may be just finishing, after what held it — the waiting thread's previous call — ended.)
// @unchecked Sendable: every stored property is read and written only with `condition` held
// (its lock), and the handler closure it calls is `@Sendable`; NSCondition is used rather than
// LockedState because the waiting threads need its wait and broadcast.
final class PluginInbox<Message: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// The messages not handled yet, each with the thread waiting for it (an answer).
    private var messages: [(message: Message, waiter: pthread_t?)] = []
    private var head = 0
    /// The thread inside a handler now, and how deeply (nested calls).
    private var handler: pthread_t?
    private var depth = 0
    /// Threads waiting for an answer, which handle messages meanwhile.
    private var waiters = 0
    private var workerScheduled = false
    /// When a handler last began or finished a message.
    private var lastProgress = ContinuousClock.now
    private let capacity: Int
    /// How long a handler on another thread may make no progress, while a thread waits for
    /// an answer, before that thread takes its answer out of turn.
    let stuckAfter: Duration
    private let worker: DispatchQueue
    private var handleMessage: (@Sendable (Message) -> Void)?
    private var handlerIsStuck: (@Sendable () -> Void)?

    /// `capacity` messages waiting make ``add(_:awaitedBy:handlingItHereIfIdle:)`` wait.
    init(label: String, capacity: Int, stuckAfter: Duration = .milliseconds(100)) {
        self.capacity = capacity
        self.stuckAfter = stuckAfter
        self.worker = DispatchQueue(label: label)
    }

    /// Sets what runs each message, and what a thread waiting for an answer calls when a
    /// handler on another thread has been stuck for ``stuckAfter`` and the answer is not there
    /// (that handler may be the one that reads them); before the first message is added.
    func setHandler(_ handle: @escaping @Sendable (Message) -> Void, whenStuck: (@Sendable () -> Void)? = nil) {
        condition.lock()
        handleMessage = handle
        handlerIsStuck = whenStuck
        condition.unlock()
    }

    private func handle(_ message: Message) {
        condition.lock()
        let handle = handleMessage
        condition.unlock()
        handle?(message)
    }

    private var pending: Int { messages.count - head }

    /// Whether a handler is running on a thread other than this one.
    private var busyElsewhere: Bool {
        guard let handler else { return false }
        return pthread_equal(handler, pthread_self()) == 0
    }

    /// Adds `message` (from the reader thread), in turn: an answer (`awaitedBy` the thread
    /// waiting for it) too, so the events the plugin sent before it reach their watchers
    /// before the call returns. Waits while the inbox is full.
    ///
    /// `handlingItHereIfIdle`: when no handler is running and no thread waits for an answer,
    /// the calling thread handles the message before returning, and what is added meanwhile.
    func add(_ message: Message, awaitedBy waiter: pthread_t? = nil, handlingItHereIfIdle: Bool = false) {
        condition.lock()
        while pending >= capacity { condition.wait() }
        messages.append((message, waiter))
        if handlingItHereIfIdle && waiters == 0 && handler == nil {
            while waiters == 0 && pending > 0 && handler == nil {
                runNext()
            }
            condition.unlock()
            return
        }
        let schedule = waiters == 0 && !workerScheduled
        if schedule { workerScheduled = true }
        condition.broadcast()
        condition.unlock()
        if schedule { worker.async { self.work() } }
    }

    /// Counts the calling thread as waiting from now on, before it sends the request whose
    /// answer it will wait for: what the plugin sends in between (events its start triggers)
    /// is then left for this thread, as it would be once it waits, not given to the worker.
    /// Follow it with ``wait(until:deadline:counted:)`` with `counted: true`.
    func willWait() {
        condition.lock()
        waiters += 1
        condition.unlock()
    }

    /// Handles messages until `done` holds or `deadline` passes (then returns false).
    /// `done` is checked under the inbox's lock after each message and each wake-up.
    /// `counted`: ``willWait()`` was called for this wait.
    func wait(until done: () -> Bool, deadline: Date, counted: Bool = false) -> Bool {
        condition.lock()
        if !counted { waiters += 1 }
        let waitingSince = ContinuousClock.now
        defer {
            waiters -= 1
            let reschedule = waiters == 0 && pending > 0 && !workerScheduled
            if reschedule { workerScheduled = true }
            condition.unlock()
            if reschedule { worker.async { self.work() } }
        }
        while !done() {
            if pending > 0 && !busyElsewhere {
                runNext()
                continue
            }
            if busyElsewhere, ContinuousClock.now - max(lastProgress, waitingSince) >= stuckAfter {
                // The handler on another thread has not moved for a while: it may be waiting
                // for this thread, which the answer releases. Out of turn, then.
                if let answer = takeAnswer(for: pthread_self()) {
                    condition.unlock()
                    handle(answer)
                    condition.lock()
                    condition.broadcast()
                    continue
                }
                if let stuck = handlerIsStuck {
                    condition.unlock()
                    stuck()
                    condition.lock()
                }
            }
            let wake = busyElsewhere ? min(deadline, Date(timeIntervalSinceNow: PluginDeadlines.seconds(stuckAfter))) : deadline
            if !condition.wait(until: wake) && Date() >= deadline && !done() { return false }
        }
        return true
    }

    /// Removes and returns the first message awaited by `thread`; called with the lock held.
    private func takeAnswer(for thread: pthread_t) -> Message? {
        guard let index = messages[head...].firstIndex(where: { $0.waiter.map { pthread_equal($0, thread) != 0 } ?? false }) else {
            return nil
        }
        return messages.remove(at: index).message
    }

    /// Waits until every message added so far has been handled, at most until `deadline`.
    func drain(deadline: Date) {
        condition.lock()
        // A handler that waits for an answer is left to the end of the process, which gives it
        // one.
        while pending > 0 || (handler != nil && waiters == 0) {
            if waiters == 0 && handler == nil {
                runNext()
                continue
            }
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Wakes the threads waiting in ``wait(until:deadline:)`` to check their condition again.
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Runs the next message on this thread; called and returns with the lock held.
    private func runNext() {
        let message = messages[head].message
        head += 1
        if head == messages.count {
            messages.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > messages.count {
            messages.removeFirst(head)
            head = 0
        }
        let previous = handler
        handler = pthread_self()
        depth += 1
        lastProgress = .now
        condition.broadcast()  // room for the reader
        condition.unlock()
        handle(message)
        condition.lock()
        lastProgress = .now
        depth -= 1
        handler = depth == 0 ? nil : previous
        condition.broadcast()
    }

    private func work() {
        condition.lock()
        workerScheduled = false
        while waiters == 0 && pending > 0 && handler == nil {
            runNext()
        }
        condition.unlock()
    }
}
