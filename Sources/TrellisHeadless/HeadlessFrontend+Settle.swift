import Dispatch
import TrellisCore

extension HeadlessFrontend {
    /// Runs what the shell has queued until it is idle, so a test sees the effect of what it
    /// did: main-actor bus deliveries, the view and error stages of requests, requests still
    /// running in the background, `Task { @MainActor … }` bodies, and whatever these queue or
    /// trigger in turn.
    ///
    /// ```swift
    /// try shell.navigate(to: "/notes/new")
    /// try screen.press("save")    // a request: validated off the main actor, refused on it
    /// try await screen.settle()
    /// #expect(screen.page?.message == "A note needs a title.")
    /// ```
    ///
    /// It works in rounds. A round lets everything already queued on the main queue run (and
    /// what that queues directly), then looks at what happened meanwhile. The shell is idle
    /// after a round in which no message was triggered on its bus, nothing changed on screen
    /// (no page pushed, popped or changed, no table row announced, no status line) and no
    /// request of its front controller was running, and the page on top does not wait for its
    /// content (``PageController/isAwaitingContent``: a plugin's page until its plugin answered
    /// or its deadline passed), and no ``Shell/pendingWork`` was left (a plugin starting, or
    /// handling an event in a process of its own: what it triggers in answer comes after
    /// `trigger` returned). While only those are left, it waits for them without spinning.
    ///
    /// What the shell cannot see is not waited for: a server's answer that no request is
    /// waiting for, a database observation still reading in the background. Wait for its
    /// visible result instead (an `EventRecorder` of TrellisTesting, or a loop on the screen
    /// with a deadline).
    ///
    /// - Parameters:
    ///   - maximumRounds: how many busy rounds to allow. A main-actor handler that triggers
    ///     its own message again, or a page that changes itself on every change, never lets the
    ///     shell settle; the default allows far more rounds than any real sequence needs.
    ///   - timeout: how long to wait for requests still running (a business object waiting
    ///     for a server). A deadline for something that should end, not a measurement: keep
    ///     it generous.
    /// - Throws: ``HeadlessError/neverSettled(_:)`` naming what was still busy.
    public func settle(maximumRounds: Int = 1_000, timeout: Duration = .seconds(30)) async throws(HeadlessError) {
        let deadline = ContinuousClock.now + timeout
        var busyRounds = 0
        while true {
            // Read before the round: a plugin that finishes its event during the round has
            // triggered its answers before, and the round's drain runs their main-actor part.
            let pending = shell.pendingWork
            let before = activity
            await Self.drainMainQueue()
            let after = activity
            let requests = shell.controller.requestsInFlight
            let pageAwaits = shell.navigator.top?.isAwaitingContent == true
            if after == before {
                if requests == 0 && !pageAwaits && pending.isEmpty { return }
                guard ContinuousClock.now < deadline else {
                    throw .neverSettled(requests > 0 ? "\(requests) request(s) of the front controller still running after \(timeout)"
                                        : pageAwaits ? "the page \(shell.navigator.top?.values.path ?? "") still waits for its content after \(timeout)"
                                        : "still under way after \(timeout): \(pending.joined(separator: "; "))")
                }
                // Only background work is left: let it run instead of spinning.
                try? await Task.sleep(for: .milliseconds(1))
            } else {
                busyRounds += 1
                guard busyRounds < maximumRounds else {
                    throw .neverSettled("still busy after \(busyRounds) rounds; the last round " + after.change(since: before))
                }
            }
        }
    }

    /// What the shell has done so far, as counts a round compares.
    private var activity: SettleActivity {
        let bus = busActivity.snapshot
        return SettleActivity(triggers: bus.triggers, lastMessage: bus.lastMessage, screenChanges: screenChanges,
                              tableChanges: tables.values.reduce(0) { $0 + $1.deliveredChanges.count })
    }

    /// Returns once everything queued on the main queue before the call has run, and what
    /// those blocks queued directly (the continuation and the yield each go to the back).
    private static func drainMainQueue() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        await Task.yield()
    }
}

/// The counts ``HeadlessFrontend/settle(maximumRounds:timeout:)`` compares between rounds.
private struct SettleActivity: Equatable {
    var triggers: Int
    var lastMessage: String?
    var screenChanges: Int
    var tableChanges: Int

    /// What happened between `earlier` and this, in words.
    func change(since earlier: SettleActivity) -> String {
        var parts: [String] = []
        if triggers != earlier.triggers {
            parts.append("triggered \(triggers - earlier.triggers) message(s), the last '\(lastMessage ?? "")'")
        }
        if screenChanges != earlier.screenChanges { parts.append("changed the screen \(screenChanges - earlier.screenChanges) time(s)") }
        if tableChanges != earlier.tableChanges { parts.append("announced \(tableChanges - earlier.tableChanges) table change(s)") }
        return parts.joined(separator: " and ")
    }
}

/// Counts every message triggered on a bus (a synchronous watch of `*`, kept by its token),
/// from any thread.
final class BusActivity: Sendable {
    private let state: LockedState<(triggers: Int, lastMessage: String?)>
    private let token: WatchToken

    init(bus: EventBus) {
        let state = LockedState<(triggers: Int, lastMessage: String?)>((0, nil))
        self.state = state
        token = bus.watch("*") { event in
            state.withLock { $0 = ($0.triggers + 1, event.message) }
        }
    }

    var snapshot: (triggers: Int, lastMessage: String?) { state.withLock { $0 } }
}
