import Testing
import TrellisCore
import TrellisHeadless
import TrellisTesting

/// `settle()` runs what the shell queued until it is idle, however deep the chain, waits for
/// requests still in a background stage, and gives up with a clear error on what never ends.
@MainActor
@Suite("Settling the headless front end")
struct SettleTests {
    @Test("the documentation's example: a refused note shows its message once settled")
    func documentationExample() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        try screen.press("save")    // a request: validated off the main actor, refused on it
        try await screen.settle()
        #expect(screen.page?.message == "A note needs a title.")
    }

    @Test("the README's example: a recorder waits for the refusal, settle runs its view stage")
    func readmeExample() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/notes/new")
        let requests = EventRecorder(bus: shell.bus, pattern: "request:*")
        try screen.press("save")
        let refused = try await requests.wait(for: RequestEvents.validationFailed)  // a deadline, not a timer
        #expect(refused.first?.data["command"] == "note.save")
        try await screen.settle()
        #expect(screen.page?.message == "A note needs a title.")
    }

    @Test("a chain of 50 main-actor deliveries, each triggering the next, runs to its end")
    func deepChain() async throws {
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        let trace = Trace()
        let bus = shell.bus
        let watch = bus.watchOnMainActor("step") { event in
            let step = event.data.intValue ?? 0
            trace.record("\(step)")
            if step < 50 { bus.trigger("step", .number(Double(step + 1))) }
        }
        bus.trigger("step", 1)
        try await screen.settle()
        #expect(trace.all == (1...50).map(String.init))
        watch.cancel()
    }

    @Test("a request still in its background stage is waited for, view stage included")
    func waitsForRequests() async throws {
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        let trace = Trace()
        shell.controller.mapBusiness("slow") { Pause(trace: trace) }
        shell.controller.mapView("slow") { Shown(trace: trace) }
        _ = shell.controller.submit("slow")
        try await screen.settle()
        #expect(trace.all == ["business", "view"])
    }

    @Test("a main-actor handler that triggers itself forever: settle gives up after its rounds, naming the message")
    func livelock() async throws {
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        let looping = LockedState(true)
        let bus = shell.bus
        let watch = bus.watchOnMainActor("again") { _ in
            if looping.withLock({ $0 }) { bus.trigger("again") }
        }
        bus.trigger("again")
        let error = await #expect(throws: HeadlessError.self) { try await screen.settle(maximumRounds: 20) }
        let description = error?.description ?? ""
        #expect(description.hasPrefix("the shell never settled: still busy after 20 rounds; the last round triggered "))
        #expect(description.hasSuffix(" message(s), the last 'again'"), "\(description)")
        looping.withLock { $0 = false }
        try await screen.settle()
        watch.cancel()
    }

    @Test("a request that never ends: settle gives up after its timeout, counting the requests")
    func requestNeverEnds() async throws {
        let shell = Shell()
        let screen = HeadlessFrontend(shell: shell)
        shell.controller.mapBusiness("stuck") { Stuck() }
        let handle = shell.controller.submit("stuck")
        let error = await #expect(throws: HeadlessError.self) { try await screen.settle(timeout: .milliseconds(50)) }
        #expect(error == .neverSettled("1 request(s) of the front controller still running after 0.05 seconds"))
        handle.cancel()
        let outcome = await handle.outcome
        guard case .cancelled = outcome else {
            Issue.record("expected the request to end cancelled, not \(outcome)")
            return
        }
        try await screen.settle()
    }
}

/// A business object that lets other work run before it records itself.
private struct Pause: ControlObject {
    let trace: Trace

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        for _ in 0..<10 { await Task.yield() }
        trace.record("business")
        return .continue
    }
}

/// A view object that records itself.
@MainActor
private struct Shown: ViewControlObject {
    let trace: Trace

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        trace.record("view")
        return .continue
    }
}

/// A business object that waits until its request is cancelled.
private struct Stuck: ControlObject {
    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        try await Task.sleep(for: .seconds(3600))
        return .continue
    }
}
