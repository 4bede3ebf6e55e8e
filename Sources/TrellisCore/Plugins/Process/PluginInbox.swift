import Foundation

/// The messages a plugin process sent (``PluginMessage``s; any `Message` in the tests),
/// handled in the order they came and one at a time, but never on the thread that reads its
/// socket: a watcher of a plugin's event may call back into the plugin (stop its service,
/// disable it) and wait for an answer that only that thread can read.
///
/// Who handles them, as in the shell's process: while a thread waits for one of the plugin's
/// answers (a service start, say), that thread handles them, so an event the plugin triggers
/// during its start reaches its watchers on the starting thread before the start returns, as
/// an in-process plugin's does. Otherwise a worker of the inbox's own handles them. A handler
/// that waits for an answer itself handles the messages after its own meanwhile (a nested call).
/// An answer is delivered at once, out of turn, when a handler is busy on a thread other than
/// the one waiting for it: that handler may be waiting for the thread the answer releases.
// @unchecked Sendable: every stored property is read and written only with `condition` held
// (its lock), and the handler closure it calls is `@Sendable`; NSCondition is used rather than
// LockedState because the waiting threads need its wait and broadcast.
final class PluginInbox<Message: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var messages: [Message] = []
    private var head = 0
    /// The thread inside a handler now, and how deeply (nested calls).
    private var handler: pthread_t?
    private var depth = 0
    /// Threads waiting for an answer, which handle messages meanwhile.
    private var waiters = 0
    private var workerScheduled = false
    private let capacity: Int
    private let worker: DispatchQueue
    private var handleMessage: (@Sendable (Message) -> Void)?

    /// `capacity` messages waiting make ``add(_:awaitedBy:)`` wait.
    init(label: String, capacity: Int) {
        self.capacity = capacity
        self.worker = DispatchQueue(label: label)
    }

    /// Sets what runs each message; before the first is added.
    func setHandler(_ handle: @escaping @Sendable (Message) -> Void) {
        condition.lock()
        handleMessage = handle
        condition.unlock()
    }

    private func handle(_ message: Message) {
        condition.lock()
        let handle = handleMessage
        condition.unlock()
        handle?(message)
    }

    private var pending: Int { messages.count - head }

    /// Whether a handler is running on a thread other than `thread`.
    private func busy(apartFrom thread: pthread_t) -> Bool {
        guard let handler else { return false }
        return pthread_equal(handler, thread) == 0
    }

    private var busyElsewhere: Bool { busy(apartFrom: pthread_self()) }

    /// Adds `message` (from the reader thread). An answer (`awaitedBy` the thread waiting for
    /// it) is handled at once when a handler is busy on another thread than that one; other
    /// messages, and answers no thread waits for, in turn. Waits while the inbox is full.
    func add(_ message: Message, awaitedBy waiter: pthread_t? = nil) {
        condition.lock()
        let outOfTurn = waiter.map { busy(apartFrom: $0) } ?? false
        if outOfTurn {
            condition.unlock()
            handle(message)
            condition.lock()
            condition.broadcast()
            condition.unlock()
            return
        }
        while pending >= capacity { condition.wait() }
        messages.append(message)
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
            if !condition.wait(until: deadline) && !done() { return false }
        }
        return true
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
        let message = messages[head]
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
        condition.broadcast()  // room for the reader
        condition.unlock()
        handle(message)
        condition.lock()
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
