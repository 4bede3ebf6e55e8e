import TrellisCore
import Foundation
import Logging
import TrellisPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// A plugin running in a `trellis-plugin-host` process of its own: the shell's side of the
/// wire (`PluginProcessHost` is the other). A plugin that aborts, dereferences NULL or loops
/// takes only its process down; the shell notices at once (the socket's end of stream), or
/// when a call is not answered in time (then it kills the process), and goes on.
///
/// The plugin's calls arrive on a reader thread and are handled, in order, by a
/// ``PluginInbox`` — on the thread that waits for one of the plugin's answers if there is one,
/// as in the shell's process, else on the reader thread itself — and act through the plugin's
/// ``PluginContext``, as the in-process table's do: its watches are the context's, on the
/// shell's bus; its triggers, navigations and requests are checked again here. Events for
/// the plugin's watches are written at once when its socket takes them, else queued and
/// written by a thread of their own (``PluginOutbox``): a watcher on the GTK thread never waits
/// for a plugin. The process answers `done` for each event it handled; a plugin that handles
/// no event for ``PluginDeadlines/event`` while some wait, or that falls more than
/// ``maximumQueuedMessages`` behind, is stopped as unresponsive.
final class PluginProcess: Sendable {
    /// Messages queued for the plugin beyond which it is stopped as unresponsive.
    static let maximumQueuedMessages = 10_000

    private struct State {
        var nextRequest: UInt64 = 0
        /// The thread waiting for the entry's answer (see ``PluginInbox``).
        var entryWaiter: pthread_t?
        var answers: [UInt64: Answer] = [:]
        var watches: [UInt64: WatchID] = [:]
        var registered: [String] = []
        var entry: JSONValue?
        var ended = false
        /// Whether the socket reached its end: no call is sent any more.
        var closed = false
        /// Whether ``launch(library:context:grants:deadlines:onCrash:)`` succeeded: an end
        /// before that is a failure to load, not a crash.
        var launched = false
        var stopping = false
        var killReason: String?
        /// The events sent and not yet handled, oldest first.
        var pendingEvents: [String] = []
        /// When the plugin last finished something (or could begin the oldest pending event).
        var progress = ContinuousClock.now
        /// Its triggers, navigations and requests, slowed down past a flood.
        var budget = PluginCallBudget()
        var throttled = false
    }

    /// One awaited answer: its handler (or the end of the process) fills it and sets
    /// `finished`. `waiter` is the thread that waits for it.
    private final class Answer: Sendable {
        let waiter = pthread_self()
        /// Read from the socket (it may wait in the inbox behind what the plugin sent first).
        let arrived = LockedState(false)
        let finished = LockedState(false)
        let message = LockedState<PluginMessage?>(nil)
    }

    let context: PluginContext
    let deadlines: PluginDeadlines
    private let pid: pid_t
    private let wire: PluginWire
    private let outbox: PluginOutbox
    private let state = LockedState(State())
    private let inbox: PluginInbox<PluginMessage>
    private let reading: PluginSocketReading
    private let output = PluginOutput()
    /// Signalled once, when the process has ended and its plugin's context is inactive.
    private let endDone = DispatchSemaphore(value: 0)
    private let onCrash: @Sendable (PluginFailure) -> Void

    private init(context: PluginContext, deadlines: PluginDeadlines, spawned: PluginProcessLaunch.Spawned,
                 onCrash: @escaping @Sendable (PluginFailure) -> Void) {
        self.context = context
        self.deadlines = deadlines
        self.pid = spawned.pid
        self.wire = PluginWire(descriptor: spawned.socket)
        // The outbox closes the socket once released: not before a queued write is done.
        self.outbox = PluginOutbox(wire: wire, label: "trellis.plugin.\(context.pluginID).writes",
                                   capacity: Self.maximumQueuedMessages)
        self.inbox = PluginInbox(label: "trellis.plugin.\(context.pluginID).inbox", capacity: Self.maximumQueuedMessages)
        self.reading = PluginSocketReading(wire: wire)
        self.onCrash = onCrash
        // A thread waiting for the plugin's answer while the reader has been stuck in a handler
        // (a watcher waiting for that thread, say): a new reader reads the answer.
        inbox.setHandler({ [weak self] message in self?.handle(message) },
                         whenStuck: { [weak self] in self?.handOverReading(if: .stuck) })
    }

    /// Starts the plugin's process and waits (at most ``startDeadline``) for its entry to
    /// return. `onCrash` is called, on a thread of the process's own, if the process ends
    /// after a successful launch without being stopped by ``terminate()``.
    /// `grants` is the first message the process reads, before it opens the library: the
    /// plugin's permissions and the routes known now (see `PluginProcessHost`).
    static func launch(library: URL, context: PluginContext, grants: JSONValue, deadlines: PluginDeadlines,
                       onCrash: @escaping @Sendable (PluginFailure) -> Void) -> Result<(PluginProcess, JSONValue), PluginFailure> {
        let spawned: PluginProcessLaunch.Spawned
        switch PluginProcessLaunch.spawn(library: library, pluginID: context.pluginID, grants: grants) {
        case .success(let value): spawned = value
        case .failure(let failure): return .failure(failure)
        }
        let process = PluginProcess(context: context, deadlines: deadlines, spawned: spawned, onCrash: onCrash)
        process.state.withLock { $0.entryWaiter = pthread_self() }
        process.send(PluginMessage(.grants, value: grants))
        process.watch()
        process.output.follow(spawned.stderr)
        Thread.detachNewThread { process.readMessages() }
        let entered = process.inbox.wait(until: { process.state.withLock { $0.entry != nil || $0.ended } },
                                          deadline: Date(timeIntervalSinceNow: PluginDeadlines.seconds(deadlines.start)))
        guard entered, let entry = process.state.withLock({ $0.entry }) else {
            process.state.withLock { $0.stopping = true }
            process.kill(because: "its entry did not return within \(PluginDeadlines.text(deadlines.start))")
            return .failure(process.endFailure(fallback: "its entry did not return"))
        }
        if let failure = entry["failure"] {
            process.terminate()
            return .failure(PluginFailure(wire: failure))
        }
        // A process that ended by now (its entry returned, then it exited) did not launch.
        guard process.state.withLock({ state in
            state.launched = !state.ended
            return state.launched
        }) else {
            return .failure(process.endFailure(fallback: "it ended"))
        }
        return .success((process, entry))
    }

    /// The services the plugin registered during its entry.
    var registeredServices: [String] { state.withLock { $0.registered } }

    /// Whether the process has ended.
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Whether the plugin was sent an event it has not finished handling (its `done` comes
    /// after whatever it triggered in answer, on the same socket).
    var isHandlingEvents: Bool { state.withLock { !$0.ended && !$0.pendingEvents.isEmpty } }

    // MARK: Calls to the plugin

    /// Asks the plugin to start service `name`; returns its status and error text, or throws
    /// why the process gave no answer.
    func startService(_ name: String, options: JSONValue) throws(PluginServiceError) {
        guard let answer = call(PluginMessage(.start, name: name, value: options),
                                deadline: deadlines.start, what: "the start of service \"\(name)\"")?.value else {
            throw .startFailed(plugin: context.pluginID, service: name, reason: endFailure(fallback: "no answer").description)
        }
        let status = answer["status"]?.intValue ?? Int(TRELLIS_ERROR_INVALID_ARGUMENT)
        guard status == Int(TRELLIS_OK) else {
            let text = answer["error"]?.stringValue ?? ""
            throw .startFailed(plugin: context.pluginID, service: name, reason: text.isEmpty ? "error \(status)" : text)
        }
    }

    /// Asks the plugin to stop service `name`, waiting at most ``PluginDeadlines/stop``.
    func stopService(_ name: String, options: JSONValue) {
        _ = call(PluginMessage(.stop, name: name, value: options),
                 deadline: deadlines.stop, what: "the stop of service \"\(name)\"")
    }

    /// Says that the process is about to be ended on purpose (its plugin disabled or
    /// reloaded): from now on its end is not a crash, even when a service's stop misses its
    /// deadline and the process is killed for it before ``terminate()`` is called.
    func willEnd() {
        state.withLock { $0.stopping = true }
    }

    /// Ends the process: closes its socket (the plugin host exits), and kills it if it has
    /// not exited within ``PluginDeadlines/stop``. Not a crash.
    func terminate() {
        let alreadyEnded = state.withLock { state in
            state.stopping = true
            return state.ended
        }
        guard !alreadyEnded else { return }
        shutdown(wire.descriptor, Int32(SHUT_RDWR))
        let pid = self.pid
        DispatchQueue.global().asyncAfter(deadline: .now() + PluginDeadlines.seconds(deadlines.stop)) { [weak self] in
            if self?.hasEnded == false { Glibc.kill(pid, SIGKILL) }
        }
    }

    /// ``terminate()``, then waits until the process has ended (at most the stop deadline and
    /// a second): a new process for the same plugin may start without the old one's end
    /// making the plugin inactive behind it.
    func terminateAndWait() {
        handOverReading(if: .fromThisThread)
        terminate()
        if endDone.wait(timeout: .now() + PluginDeadlines.seconds(deadlines.stop) + 1) == .success {
            endDone.signal()  // for any other waiter
        }
    }

    /// Sends `message` with a new request id and waits for its answer; nil when the process
    /// ended or did not answer in time (then it is killed, and counts as crashed).
    private func call(_ message: PluginMessage, deadline: Duration, what: String) -> PluginMessage? {
        let answer = Answer()
        let id: UInt64? = state.withLock { state in
            guard !state.ended, !state.closed else { return nil }
            state.nextRequest += 1
            state.answers[state.nextRequest] = answer
            return state.nextRequest
        }
        guard let id else { return nil }
        var request = message
        request.number = Int64(id)
        // A watcher of the plugin's event, on the reader thread, calling the plugin: the
        // answer needs a reader.
        handOverReading(if: .fromThisThread)
        inbox.willWait()
        send(request)
        var answered = inbox.wait(until: { answer.finished.withLock { $0 } },
                                  deadline: Date(timeIntervalSinceNow: PluginDeadlines.seconds(deadline)), counted: true)
        if !answered && answer.arrived.withLock({ $0 }) {
            // The plugin answered in time; what it sent before the answer is still being
            // handled here. The deadline is the plugin's, not the shell's: wait for the rest.
            answered = inbox.wait(until: { answer.finished.withLock { $0 } }, deadline: .distantFuture)
        }
        guard answered else {
            kill(because: "it did not answer \(what) within \(PluginDeadlines.text(deadline))")
            return nil
        }
        return answer.message.withLock { $0 }
    }

    /// Queues `event` for the plugin's watch `watch`; the watchdog waits for its `done`.
    private func deliver(_ event: Event, to watch: UInt64) {
        let open = state.withLock { state in
            guard !state.ended else { return false }
            if state.pendingEvents.isEmpty { state.progress = .now }
            state.pendingEvents.append(event.message)
            return true
        }
        guard open else { return }
        send(PluginMessage(.event, number: Int64(watch), name: event.message, value: event.data))
    }

    /// Checks, a few times per event deadline, that a plugin with events waiting handled one
    /// within the deadline (a call in progress has its own deadline, and pauses this one).
    /// Runs until the process ends.
    private func watch() {
        let interval = min(PluginDeadlines.seconds(deadlines.event) / 4, 0.5)
        DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self else { return }
            let (ended, late): (Bool, String?) = state.withLock { state in
                guard !state.ended, state.answers.isEmpty, let oldest = state.pendingEvents.first else {
                    state.progress = .now
                    return (state.ended, nil)
                }
                return (false, ContinuousClock.now - state.progress > deadlines.event ? oldest : nil)
            }
            if let late {
                kill(because: "it did not handle event \(late.debugDescription) within \(PluginDeadlines.text(deadlines.event))")
            }
            if !ended { watch() }
        }
    }

    /// Sends the plugin its new setting values (what `get_settings` answers from now on),
    /// before the `<id>:settings` event that announces them.
    func sendSettings(_ values: JSONValue) {
        send(PluginMessage(.settings, value: values))
    }

    /// Writes `message` to the plugin, or queues it; past ``maximumQueuedMessages`` queued, the
    /// plugin is stopped.
    private func send(_ message: PluginMessage) {
        guard !state.withLock({ $0.ended }) else { return }
        if outbox.send(PluginWire.frame(message)) == .full {
            kill(because: "it fell \(Self.maximumQueuedMessages) messages behind")
        }
    }

    func kill(because reason: String) {
        let first = state.withLock { state in
            defer { if state.killReason == nil { state.killReason = reason } }
            return state.killReason == nil && !state.ended
        }
        if first {
            context.logger.error("plugin \(context.pluginID): \(reason); stopping its process")
            Glibc.kill(pid, SIGKILL)
        }
    }

    // MARK: The reader threads

    /// Reads the plugin's messages into the inbox, handling each itself when no other thread
    /// is handling or waiting (see ``PluginInbox``); a flood of calls is slowed down here, so
    /// that the plugin's socket fills and its own calls block. At the end of the stream, the
    /// messages read are handled before the process counts as ended. Returns early when it
    /// has handed the reading over to a new thread.
    private func readMessages() {
        reading.take()
        while let message = nextMessage() {
            if message.op == .trigger || message.op == .navigate || message.op == .request { throttle() }
            let waiter = state.withLock { state -> pthread_t? in
                switch message.op {
                case .entry: state.entryWaiter
                case .started, .stopped:
                    state.answers[UInt64(truncatingIfNeeded: message.number)].map { answer in
                        answer.arrived.withLock { $0 = true }
                        return answer.waiter
                    }
                default: nil
                }
            }
            inbox.add(message, awaitedBy: waiter, handlingItHereIfIdle: true)
            guard reading.isHeld else { return }
        }
        reading.reachedEnd()  // a second reader would end the process a second time
        state.withLock { $0.closed = true }
        inbox.drain(deadline: Date(timeIntervalSinceNow: PluginDeadlines.seconds(deadlines.stop)))
        ended()
    }

    /// A new reader thread, when ``PluginSocketReading/handOver(if:)`` gives up the role: the
    /// old reader handles on and then ends.
    private func handOverReading(if when: PluginSocketReading.HandOver) {
        if reading.handOver(if: when) { Thread.detachNewThread { self.readMessages() } }
    }

    /// The plugin's next message; nil at the end of the stream, or after a frame that could not
    /// be read (the process is then killed: it does not follow the protocol).
    private func nextMessage() -> PluginMessage? {
        do {
            return try reading.next()
        } catch {
            kill(because: "it sent a malformed message: \(error)")
            return nil
        }
    }

    private func handle(_ message: PluginMessage) {
        reading.handling { handleMessage(message) }
    }

    private func handleMessage(_ message: PluginMessage) {
        switch message.op {
        case .register:
            let name = message.name
            if let failure = context.checkRegistration(of: name) {
                context.refuse(failure)
            } else {
                state.withLock { $0.registered.append(name) }
                context.noteRegistration(of: name)
            }
        case .refuse:
            context.refuse(.pluginProcess(reason: message.name.isEmpty ? "a registration was refused" : message.name))
        case .entry:
            state.withLock { $0.entry = message.value ?? .object([:]) }
        case .done:
            state.withLock { state in
                if !state.pendingEvents.isEmpty { state.pendingEvents.removeFirst() }
                state.progress = .now
            }
        case .started, .stopped:
            state.withLock { $0.progress = .now }
            let id = UInt64(truncatingIfNeeded: message.number)
            guard let answer = state.withLock({ $0.answers.removeValue(forKey: id) }) else { return }
            answer.message.withLock { $0 = message }
            answer.finished.withLock { $0 = true }
        case .watch:
            let (pattern, watch) = (message.name, message.number)
            guard context.acceptsCalls, !pattern.isEmpty, context.gate.allows(.watch, pattern) else { return }
            let id = context.bus.watch(pattern, owner: context) { [weak self] _, event in
                self?.deliver(event, to: UInt64(truncatingIfNeeded: watch))
            }
            context.remember(id)
            state.withLock { $0.watches[UInt64(truncatingIfNeeded: watch)] = id }
        case .unwatch:
            guard let id = state.withLock({ $0.watches.removeValue(forKey: UInt64(truncatingIfNeeded: message.number)) }),
                  context.forget(id.rawValue) else { return }
            context.bus.unwatch(id)
        case .trigger, .navigate, .request:
            let name = message.name
            guard context.acceptsCalls, !name.isEmpty else { return }
            guard let data = message.value else {
                // The process checks the plugin's JSON: this one came around it.
                context.logger.error("plugin \(context.pluginID): \(message.op) \"\(name)\": its data is not JSON; ignored")
                return
            }
            // The process answered the plugin already; a call it should have denied is denied
            // (and logged) here too.
            switch message.op {
            case .trigger: _ = context.trigger(name, data)
            case .navigate: _ = context.navigate(name, data)
            default: _ = context.request(name, data)
            }
        case .log:
            context.logger.log(level: HostAPITable.logLevel(Int32(truncatingIfNeeded: message.number)), "\(message.name)")
        case .grants, .start, .stop, .event, .settings:
            context.logger.warning("plugin \(context.pluginID): its process sent a message only the shell sends (\(message.op)); ignored")
        }
    }

    /// Waits (on the reader thread: the plugin's socket fills and its calls block) until the
    /// call budget allows one more call; says so once per plugin process.
    private func throttle() {
        let (wait, first) = state.withLock { state -> (Duration, Bool) in
            let wait = state.budget.take()
            defer { if wait > .zero { state.throttled = true } }
            return (wait, wait > .zero && !state.throttled)
        }
        guard wait > .zero else { return }
        if first {
            context.logger.warning("plugin \(context.pluginID): more than \(Int(PluginCallBudget.perSecond)) calls a second; slowed down to that")
        }
        Thread.sleep(forTimeInterval: PluginDeadlines.seconds(wait))
    }

    /// The socket reached its end: the process exited, crashed or was killed.
    private func ended() {
        // A process that closed its socket but runs on is of no use: it is given the stop
        // deadline to exit, then killed, so that this thread never waits for it for ever.
        var status = PluginProcessLaunch.waitForExit(of: pid, within: deadlines.stop)
        if status == nil {
            let stopping = state.withLock { state in
                if state.killReason == nil && !state.stopping { state.killReason = "it closed its connection to the shell and went on running" }
                return state.stopping
            }
            if !stopping { context.logger.error("plugin \(context.pluginID): it closed its connection to the shell; stopping its process") }
            Glibc.kill(pid, SIGKILL)
            status = PluginProcessLaunch.waitForExit(of: pid)
        }
        output.waitForEnd(timeout: .now() + 1)
        let (answers, stopping) = state.withLock { state in
            state.ended = true
            if state.killReason == nil { state.killReason = PluginProcessLaunch.describe(waitStatus: status ?? 0) }
            defer { state.answers = [:] }
            return (Array(state.answers.values), state.stopping || !state.launched)
        }
        context.setPhase(.inactive)
        answers.forEach { $0.finished.withLock { $0 = true } }
        inbox.wake()
        endDone.signal()
        if !stopping { onCrash(endFailure(fallback: "it ended")) }
    }

    /// Why the process ended, with its last output, as a crash.
    private func endFailure(fallback: String) -> PluginFailure {
        .crashed(reason: state.withLock { $0.killReason } ?? fallback, lastOutput: output.lastLines)
    }
}
