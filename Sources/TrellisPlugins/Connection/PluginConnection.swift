import DequeModule
import Dispatch
import Foundation
import Logging
import TrellisCore
import TrellisPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// One plugin running in a `trellis-plugin-host` process of its own, from the shell's side: the
/// boundary is asynchronous by contract, as VS Code's extension host and GIMP's plug-ins are,
/// and nothing here pretends it is a local call (Waldo et al., "A Note on Distributed
/// Computing").
///
/// - **One ordered mailbox.** The connection has an event loop of its own (``PluginEventLoop``,
///   one thread, the actor's executor): the socket is read there, each frame decoded into a
///   ``ProcessMessage`` and taken by this actor at once, in order, with what happens to the
///   process (its end) and to the connection's deadlines (``PluginInbound``). The loop's queue is
///   the mailbox: nothing is taken out of turn.
/// - **Requests with ids.** The shell's requests (`start`, `stop`) carry a number; the answer with
///   that number resumes the awaiting call. What the plugin sent before its answer — the events
///   its service's start triggered, say — was posted before it, so it has reached the bus before
///   the call returns: by the mailbox's order, not by a thread taking messages out of turn.
/// - **Events are sent, never awaited.** A watcher of the bus (on the GTK thread, say) hands an
///   event to ``deliver(_:to:)``, which writes it (or queues it) and returns; the plugin answers
///   `done` for each, in order.
/// - **Deadlines on an injected clock.** A request not answered within its deadline, an event
///   not done within ``PluginDeadlines/event`` of when the plugin could begin it, an entry that
///   does not return, a process that closed its socket and runs on: the connection kills the
///   process (SIGKILL, through its pidfd). Deadlines are instants on a ``PluginClock``, so a test
///   crosses one by advancing its clock.
/// - **Budgets.** A plugin that calls faster than ``PluginLimits`` allow is slowed down: its
///   message is held back, with whatever comes after it, the socket is no longer read, and the
///   plugin's own calls block. Time the shell held the plugin up this way is added to its
///   deadlines.
actor PluginConnection {
    /// Messages queued for the plugin beyond which it is stopped as unresponsive.
    static let maximumQueuedMessages = 10_000

    /// One request awaiting its answer.
    private struct Request {
        let what: String
        let limit: Duration
        /// When the answer is due: `limit` after the plugin could begin the request, once the
        /// events sent before it are done (nil until then; the event deadline watches those).
        var due: Duration?
        /// Events sent before the request and not done yet.
        var eventsBefore: Int
        let continuation: CheckedContinuation<ProcessMessage?, Never>
    }

    nonisolated let context: PluginContext
    nonisolated var pluginID: String { context.pluginID }
    nonisolated let deadlines: PluginDeadlines
    nonisolated let limits: PluginLimits
    nonisolated let clock: PluginClock
    nonisolated let channel: PluginChannel
    nonisolated let child: PluginChildProcess
    nonisolated let output: PluginStderr
    /// The thread the socket, stderr and the process's end are read on, and the actor runs on.
    nonisolated let loop: PluginEventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    nonisolated let sent = LockedState(SentEvents())
    /// What the connection waits for the plugin to answer now ("the start of service \"x\""),
    /// for ``PluginHost/pendingWork``; empty once it has ended.
    nonisolated let waitingFor = LockedState<[String]>([])
    /// Called once if the process ends after a successful launch without being asked to
    /// (``prepareToEnd()``, ``terminate()``): a crash, with how it ended.
    private let onCrash: @Sendable (PluginFailure) -> Void

    private var nextRequest: UInt64 = 0
    private var requests: [UInt64: Request] = [:]
    var entryWait: CheckedContinuation<PluginEntry?, Never>?
    var entryDue: Duration?
    /// The services the plugin registered during its entry.
    var registeredServices: [String] = []
    /// The plugin's watches: the process's ids, and the bus's.
    var watches: [UInt64: WatchID] = [:]
    var budgets: Budgets
    /// Things said once per connection ("slowed down", "too many watches").
    var saidOnce: Set<String> = []
    var closed = false
    var exitStatus: Int32?
    var outputEnded = false
    /// When the process must have ended (after its socket closed, or it was asked to end).
    var endDue: Duration?
    private var launched = false
    private var stopping = false
    private(set) var hasEnded = false
    private var endWaiters: [CheckedContinuation<Void, Never>] = []
    private var alarm: (due: Duration, task: Task<Void, Never>)?
    /// What came while a message was held back for the budgets, in order, the held message
    /// first (charged already); the socket is not read meanwhile.
    var held = Deque<PluginInbound>()

    private init(context: PluginContext, spawned: PluginProcessLaunch.Spawned, child: PluginChildProcess, loop: PluginEventLoop,
                 deadlines: PluginDeadlines, limits: PluginLimits, clock: PluginClock,
                 onCrash: @escaping @Sendable (PluginFailure) -> Void) {
        self.context = context
        self.deadlines = deadlines
        self.limits = limits
        self.clock = clock
        self.child = child
        self.loop = loop
        self.onCrash = onCrash
        budgets = Budgets(limits)
        channel = PluginChannel(descriptor: spawned.socket, loop: loop, capacity: Self.maximumQueuedMessages)
        output = PluginStderr(descriptor: spawned.stderr, pluginID: context.pluginID, clock: clock, loop: loop)
    }

    /// A connection released before its process ended (its host gone): the process is killed,
    /// its socket closed, and the loop's thread ends once the stderr and pidfd have ended too.
    deinit {
        child.kill(because: "its connection is gone")
        channel.close()
        loop.stop()
    }

    // MARK: Launching

    /// Starts the plugin's process on `library` and waits (at most ``PluginDeadlines/start``)
    /// for its entry to return. `grants` is the first message the process reads, before it
    /// opens the library. Returns the connection and what the entry reported, or why the
    /// process could not be started or gave no entry (it is ended then).
    /// `onStart` is told of the connection as soon as its process runs (the host lists what it
    /// waits for in ``PluginHost/pendingWork``).
    static func launch(library: URL, context: PluginContext, grants: JSONValue, deadlines: PluginDeadlines,
                       limits: PluginLimits, clock: PluginClock, onStart: @Sendable (PluginConnection) -> Void = { _ in },
                       onCrash: @escaping @Sendable (PluginFailure) -> Void) async -> Result<(PluginConnection, PluginEntry), PluginFailure> {
        let spawned: PluginProcessLaunch.Spawned
        switch PluginProcessLaunch.spawn(library: library, pluginID: context.pluginID, grants: grants) {
        case .success(let value): spawned = value
        case .failure(let failure): return .failure(failure)
        }
        guard let child = PluginChildProcess(pid: spawned.pid) else {
            Glibc.kill(spawned.pid, SIGKILL)
            Glibc.close(spawned.socket)
            Glibc.close(spawned.stderr)
            return .failure(.pluginProcess(reason: "this kernel gives no pidfd to follow a process by (Linux 5.3 or newer is needed)"))
        }
        let loop = PluginEventLoop(name: "trellis plugin \(context.pluginID)")
        let connection = PluginConnection(context: context, spawned: spawned, child: child, loop: loop,
                                          deadlines: deadlines, limits: limits, clock: clock, onCrash: onCrash)
        onStart(connection)
        guard let entry = await connection.begin(grants: grants) else {
            await connection.terminate()
            return .failure(await connection.endFailure(fallback: "its entry did not return"))
        }
        return .success((connection, entry))
    }

    /// Starts reading the socket, the process's stderr and its end on the loop, sends the
    /// grants and waits for the entry.
    private func begin(grants: JSONValue) async -> PluginEntry? {
        startReading()
        send(.grants(grants))
        let due = clock.now + deadlines.start
        entryDue = due
        armAlarm(due)
        waitingFor.withLock { $0.append("its entry") }
        return await withCheckedContinuation { entryWait = $0 }
    }

    /// Says that the plugin's entry was accepted: from now on an end the shell did not ask for
    /// is a crash. False when the process has ended already (it did not launch).
    func markLaunched() -> Bool {
        guard !hasEnded else { return false }
        launched = true
        return true
    }

    // MARK: Requests

    /// Asks the plugin to start service `name`; throws its error, or why the process gave no
    /// answer.
    func startService(_ name: String, options: JSONValue) async throws(PluginServiceError) {
        let answer = await request(deadline: deadlines.start, what: "the start of service \"\(name)\"") {
            .start(request: $0, service: name, options: options)
        }
        guard case .started(_, let status, let error)? = answer else {
            throw .startFailed(plugin: pluginID, service: name, reason: endFailure(fallback: "it gave no answer").description)
        }
        guard status == TRELLIS_OK else {
            throw .startFailed(plugin: pluginID, service: name, reason: error.isEmpty ? "error \(status)" : error)
        }
    }

    /// Asks the plugin to stop service `name`, and waits at most ``PluginDeadlines/stop``.
    func stopService(_ name: String, options: JSONValue) async {
        _ = await request(deadline: deadlines.stop, what: "the stop of service \"\(name)\"") {
            .stop(request: $0, service: name, options: options)
        }
    }

    /// Sends the request `message` makes with a new number and waits for its answer; nil when
    /// the process ended first, or missed `deadline` (then it is killed).
    private func request(deadline: Duration, what: String, _ message: (UInt64) -> ShellMessage) async -> ProcessMessage? {
        guard !hasEnded, !closed else { return nil }
        nextRequest += 1
        let id = nextRequest
        waitingFor.withLock { $0.append(what) }
        return await withCheckedContinuation { continuation in
            // Events sent before it come first: the request's time starts once they are done.
            let eventsBefore = sent.withLock { $0.closed ? 0 : $0.messages.count }
            let due = eventsBefore == 0 ? clock.now + deadline : nil
            requests[id] = Request(what: what, limit: deadline, due: due, eventsBefore: eventsBefore, continuation: continuation)
            send(message(id))
            armAlarm(nextDue())
        }
    }

    /// The plugin finished an event: requests sent behind it may begin.
    func eventDone(at now: Duration) {
        var began = false
        for id in requests.keys where requests[id]!.eventsBefore > 0 {
            requests[id]!.eventsBefore -= 1
            if requests[id]!.eventsBefore == 0 {
                requests[id]!.due = now + requests[id]!.limit
                began = true
            }
        }
        if began { armAlarm(nextDue()) }
    }

    /// Whether a request's time is running: while it is, it is the deadline that counts, and
    /// the events sent after it wait behind it.
    private var requestRunning: Bool { requests.values.contains { $0.due != nil } }

    /// Whether a request waits for its answer.
    var hasRequests: Bool { !requests.isEmpty }

    /// The answer to request `id` arrived (a late one, after its deadline, is dropped).
    func answered(_ id: UInt64, _ message: ProcessMessage) {
        madeProgress()
        if let request = requests.removeValue(forKey: id) {
            waitingFor.withLock { waiting in
                if let index = waiting.firstIndex(of: request.what) { waiting.remove(at: index) }
            }
            request.continuation.resume(returning: message)
        }
        armAlarm(nextDue())
    }

    /// The plugin finished something: the oldest event waiting, if any, could begin now.
    func madeProgress() {
        let now = clock.now
        sent.withLock { $0.since = now }
    }

    // MARK: Events and settings (any thread)

    /// Sends `event` for the plugin's watch `watch` and returns at once: written now when the
    /// socket takes it, else queued. The plugin must answer `done` within
    /// ``PluginDeadlines/event`` of when it could begin it.
    nonisolated func deliver(_ event: Event, to watch: UInt64) {
        let now = clock.now
        let armDeadline = sent.withLock { sent -> Bool? in
            guard !sent.closed else { return nil }
            if sent.messages.isEmpty { sent.since = now }
            sent.messages.append(event.message)
            // The alarm rings before this event's deadline already: no need to tell the actor.
            guard sent.messages.count == 1 else { return false }
            return sent.alarm.map { $0 > now + deadlines.event } ?? true
        }
        guard let armDeadline else { return }
        send(.event(watch: watch, message: event.message, json: event.data.isNull ? [] : Array(event.data.jsonData())))
        // The actor arms the event deadline, on its loop.
        if armDeadline {
            loop.execute { [weak self] in _ = self?.assumeIsolated { $0.take(.deadline) } }
        }
    }

    /// Sends the plugin its setting values (what `get_settings` answers from now on).
    nonisolated func sendSettings(_ values: JSONValue) {
        send(.settings(values))
    }

    /// Whether the plugin was sent an event it has not finished handling: what it triggers in
    /// answer is still to come.
    nonisolated var isHandlingEvents: Bool {
        sent.withLock { !$0.closed && !$0.messages.isEmpty }
    }

    /// The bytes of the process's stderr read so far. Any thread.
    nonisolated var outputBytesRead: Int { output.bytesRead }

    /// Whether the connection has ended (its process ended and its output was read). Any thread.
    nonisolated var isClosed: Bool {
        sent.withLock { $0.closed }
    }

    private nonisolated func send(_ message: ShellMessage) {
        if channel.send(PluginWire.frame(message.frame)) == .full {
            kill(because: "it fell behind: \(Self.maximumQueuedMessages) messages or \(PluginChannel.capacityBytes / 1024 / 1024) MiB not read")
        }
    }

    // MARK: Deadlines

    /// Makes sure the mailbox hears of `due` when it comes.
    func armAlarm(_ due: Duration?) {
        guard let due else { return }
        if let alarm, alarm.due <= due { return }
        alarm?.task.cancel()
        sent.withLock { $0.alarm = due }
        alarm = (due, Task { [weak self, clock] in
            do { try await clock.sleep(until: due) } catch { return }
            await self?.alarmRang(due)
        })
    }

    /// The alarm set for `due` rang: the deadlines are looked at, in turn with the messages.
    private func alarmRang(_ due: Duration) {
        guard alarm?.due == due else { return }
        alarm = nil
        sent.withLock { $0.alarm = nil }
        take(.deadline)
    }

    /// The earliest deadline still open.
    private func nextDue() -> Duration? {
        var dues = requests.values.compactMap(\.due)
        if let entryDue { dues.append(entryDue) }
        if let endDue { dues.append(endDue) }
        if !requestRunning, entryDue == nil {
            let since = sent.withLock { $0.messages.isEmpty ? nil : $0.since }
            if let since { dues.append(since + deadlines.event) }
        }
        return dues.min()
    }

    /// Kills the process for the first deadline that has passed; arms the alarm for the next.
    func checkDeadlines() {
        let now = clock.now
        if let late = requests.values.filter({ $0.due.map { now >= $0 } ?? false }).min(by: { $0.due! < $1.due! }) {
            kill(because: "it did not answer \(late.what) within \(PluginDeadlines.text(late.limit))")
        } else if let entryDue, now >= entryDue {
            self.entryDue = nil
            kill(because: "its entry did not return within \(PluginDeadlines.text(deadlines.start))")
        } else if !requestRunning, entryDue == nil,
                  let oldest = sent.withLock({ now >= $0.since + deadlines.event ? $0.messages.first : nil }) {
            kill(because: "it did not handle event \(oldest.debugDescription) within \(PluginDeadlines.text(deadlines.event))")
        }
        if let endDue, now >= endDue {
            self.endDue = nil
            if exitStatus == nil {
                kill(because: "it closed its connection to the shell and went on running", quietly: stopping)
            } else {
                // It ended, but something it started keeps its output open: the end is not
                // held up for that.
                finish()
                return
            }
        }
        armAlarm(nextDue())
    }

    /// Adds `duration`, which the shell held the plugin's messages back or spent handling them,
    /// to its deadlines.
    func extendDeadlines(by duration: Duration) {
        for id in requests.keys { requests[id]?.due? += duration }
        if let entryDue { self.entryDue = entryDue + duration }
        sent.withLock { sent in if !sent.messages.isEmpty { sent.since += duration } }
    }

    // MARK: The end

    /// Says that the process is about to be ended on purpose (its plugin disabled or reloaded):
    /// from now on its end is not a crash, even when a service's stop misses its deadline and
    /// the process is killed for it before ``terminate()``.
    func prepareToEnd() {
        stopping = true
    }

    /// Ends the process and returns once it has ended: closes its socket (the plugin host
    /// exits), and kills it if it has not ended within ``PluginDeadlines/stop``. Not a crash.
    func terminate() async {
        stopping = true
        guard !hasEnded else { return }
        if !closed {
            channel.close()
            closed = true
        }
        if endDue == nil { endDue = clock.now + deadlines.stop }
        armAlarm(endDue)
        await withCheckedContinuation { endWaiters.append($0) }
    }

    /// Returns once the process has ended.
    func waitForEnd() async {
        guard !hasEnded else { return }
        await withCheckedContinuation { endWaiters.append($0) }
    }

    /// Kills the process (SIGKILL) because of `reason`, which its end reports; logged unless
    /// `quietly`. Any thread.
    nonisolated func kill(because reason: String, quietly: Bool = false) {
        if child.kill(because: reason), !quietly {
            context.logger.error("plugin \(pluginID): \(reason); stopping its process")
        }
    }

    /// How the process ended when it was ended on purpose, if not cleanly (a crash, or a hang
    /// it was killed for, while it stopped); nil while it runs, or after a clean exit.
    var faultWhileEnding: PluginFailure? {
        guard hasEnded, stopping, let exitStatus, exitStatus != 0 else { return nil }
        return endFailure(fallback: "it ended")
    }

    /// Why the process ended (or was killed), with its last output, as a crash.
    func endFailure(fallback: String) -> PluginFailure {
        let reason = child.killReason ?? exitStatus.map(PluginChildProcess.describe(waitStatus:)) ?? fallback
        return .crashed(reason: reason, lastOutput: output.lastLines)
    }

    /// The process has ended and its output is read: nothing more comes.
    func finish() {
        guard !hasEnded else { return }
        hasEnded = true
        alarm?.task.cancel()
        alarm = nil
        held.removeAll()
        sent.withLock { sent in
            sent.closed = true
            sent.messages.removeAll()
            sent.alarm = nil
        }
        channel.close()
        for id in watches.values where context.forget(id.rawValue) { context.bus.unwatch(id) }
        watches = [:]
        waitingFor.withLock { $0 = [] }
        for request in requests.values { request.continuation.resume(returning: nil) }
        requests = [:]
        entryWait?.resume(returning: nil)
        entryWait = nil
        // Its descriptors are closed by now (the stderr and pidfd at their ends, the socket
        // above): the loop's thread ends, and what the actor does from now on runs on a queue.
        loop.stop()
        endWaiters.forEach { $0.resume() }
        endWaiters = []
        if launched && !stopping { onCrash(endFailure(fallback: "it ended")) }
    }
}
