import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// Plugins in processes of their own: a plugin that aborts, dereferences NULL or never
/// returns takes down or stops only its own process; the host reports it and the other
/// plugins go on. The plugins are C libraries built from the header alone. Deadlines and the
/// restart policy's back-off run on a test clock: a test waits (in real time) until the host
/// waits for nothing but the deadline, then advances the clock past it.
@Suite("Plugin isolation: a process per plugin", .serialized)
struct PluginIsolationTests {
    @Test("a service start that crashes or hangs fails that plugin alone, naming how; a plugin beside it works",
          arguments: [CrashingPlugin.Fault.abortInStart, .nullInStart, .loopInStart])
    func startFaults(fault: CrashingPlugin.Fault) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("crashing", fault, autostart: true)
        try sandbox.install("CHello")
        let clock = ManualClock()
        let harness = PluginHarness(sandbox: sandbox, deadlines: PluginDeadlines(), clock: clock.plugin)  // the product's own, named below
        let loading = Task { await harness.host.loadAll() }
        if fault == .loopInStart {
            #expect(await harness.waits(for: #"plugin "crashing": waiting for the start of service "crashy""#))
            clock.advance(by: .seconds(6))
        }
        let reports = await loading.value

        let failure = try #require(reports[id: "crashing"]?.state.failure, "\(reports)")
        let expected = switch fault {
        case .abortInStart: "killed by signal 6 (SIGABRT)"
        case .nullInStart: "killed by signal 11 (SIGSEGV)"
        default: "it did not answer the start of service \"crashy\" within 5 s"
        }
        #expect(failure.description.contains(expected), "\(failure)")
        #expect(!harness.services.isRunning("crashy"))

        #expect(reports[id: "c-hello"]?.state == .loaded, "\(reports)")
        let pongs = EventRecorder(bus: harness.bus, pattern: "hello:pong")
        harness.bus.trigger("hello:ping", ["n": 1])
        let pong = try await pongs.wait(for: "hello:pong")
        #expect(pong.first?.data == ["n": 1])
    }

    @Test("a plugin whose autostarted service crashed in its start is loaded afresh by the restart policy: its services register again, not refused as taken by itself")
    func restartAfterStartCrash() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("crashing", .abortInStart, autostart: true)
        let clock = ManualClock()
        let harness = PluginHarness(sandbox: sandbox, clock: clock.plugin)
        let crashes = EventRecorder(bus: harness.bus, pattern: "plugin:crashed")
        #expect(await harness.host.loadAll()[id: "crashing"]?.state.failure?.isCrash == true)
        // The first crash is followed at once by a second load, which crashes in its start again.
        #expect(await eventually { crashes.count("plugin:crashed") >= 2 }, "\(harness.logs.entries.map(\.message))")
        #expect(!harness.logs.entries.contains { $0.message.contains("is already registered") }, "\(harness.logs.entries.map(\.message))")
    }

    @Test("a plugin that crashes once loaded: plugin:crashed with the signal and its last output; its services stop, its watches end")
    func crashAfterLoading() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("crashing", .nullInHandler, autostart: true)
        let harness = PluginHarness(sandbox: sandbox)
        let crashes = EventRecorder(bus: harness.bus, pattern: "plugin:crashed")
        // What the host says at the moment it reports the crash (it restarts the plugin at once).
        let atCrash = LockedState<(failure: PluginFailure?, running: Bool, watches: Int)?>(nil)
        let owner = Trace()
        harness.bus.watch("plugin:crashed", owner: owner) { [harness] _, _ in
            let snapshot = (harness.host.report(for: "crashing")?.state.failure, harness.services.isRunning("crashy"), harness.bus.watchCount)
            atCrash.withLock { if $0 == nil { $0 = snapshot } }
        }
        let watchesWithoutPlugin = harness.bus.watchCount
        #expect(await harness.host.loadAll()[id: "crashing"]?.state == .loaded)
        #expect(harness.services.isRunning("crashy"))
        #expect(harness.bus.watchCount > watchesWithoutPlugin)

        harness.bus.trigger("crash:now")

        let crash = try #require(try await crashes.wait(for: "plugin:crashed").first)
        #expect(crash.data["plugin"] == "crashing")
        let reason = crash.data["reason"]?.stringValue ?? ""
        #expect(reason.contains("killed by signal 11 (SIGSEGV)"), "\(reason)")
        #expect(reason.contains("crashing plugin: about to write through NULL"), "\(reason)")
        // The recorder above watches first: this test may wake before the snapshot is taken.
        #expect(await eventually { atCrash.withLock { $0 } != nil })
        let snapshot = try #require(atCrash.withLock { $0 })
        guard case .crashed(let how, let output)? = snapshot.failure else {
            Issue.record("the report says \(String(describing: snapshot.failure))")
            return
        }
        #expect(how == "killed by signal 11 (SIGSEGV)")
        #expect(output.last == "crashing plugin: about to write through NULL")
        #expect(!snapshot.running, "its service was still running")
        #expect(snapshot.watches == watchesWithoutPlugin, "its watch of crash:now outlived it")
    }

    @Test("a plugin that exits, or closes its socket and runs on, is reported as crashed; a plugin beside it answers",
          arguments: [CrashingPlugin.Fault.exitInHandler, .closeSocketInHandler])
    func leavesTheConversation(fault: CrashingPlugin.Fault) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("leaving", fault, autostart: true)
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.host.loadAll()[id: "leaving"]?.state == .loaded)
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        harness.bus.trigger("crash:now")

        let crash = try #require(try await events.wait(for: "plugin:crashed").first)
        let expected = fault == .exitInHandler ? "exited with status 0" : "it closed its connection to the shell and went on running"
        #expect(crash.data["reason"]?.stringValue?.contains(expected) == true, "\(crash)")
        harness.bus.trigger("hello:ping", ["n": 3])
        #expect(try await events.wait(for: "hello:pong").first?.data == ["n": 3])
    }

    @Test("a frame the shell cannot read ends that plugin's process, said in the log and reported as a crash; a plugin beside it answers",
          arguments: WireFaultPlugin.Fault.allCases)
    func malformedFrame(fault: WireFaultPlugin.Fault) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installWireFault("scribbler", fault)
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.host.loadAll()[id: "scribbler"]?.state == .loaded)
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        harness.bus.trigger("crash:now")

        let crash = try #require(try await events.wait(for: "plugin:crashed").first)
        #expect(crash.data["plugin"] == "scribbler")
        #expect(crash.data["reason"]?.stringValue?.contains(fault.reason) == true, "\(crash)")
        #expect(harness.logs.entries.contains { $0.message.contains("plugin scribbler: \(fault.reason)") },
                "\(harness.logs.entries.map(\.message))")
        harness.bus.trigger("hello:ping", ["n": 5])
        #expect(try await events.wait(for: "hello:pong").first?.data == ["n": 5])
        #expect(!events.messages.contains("wire:never"))
    }

    @Test("a stop that never returns is cut off at the stop deadline and reported as a fault: the plugin ends up disabled, not restarted; a plugin beside it answers")
    func hungStop() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("stubborn", .loopInStop, autostart: true)
        try sandbox.install("CHello")
        let clock = ManualClock()
        let harness = PluginHarness(sandbox: sandbox, deadlines: PluginDeadlines(), clock: clock.plugin)  // the product's own, named below
        #expect(await harness.host.loadAll()[id: "stubborn"]?.state == .loaded)
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        let disabling = Task { try await harness.host.setEnabled("stubborn", false) }
        #expect(await harness.waits(for: #"plugin "stubborn": waiting for the stop of service "crashy""#))
        clock.advance(by: .seconds(3))
        let report = try await disabling.value

        #expect(report?.state == .disabled)
        #expect(!harness.services.isRunning("crashy"))
        #expect(harness.logs.entries.contains { $0.message.contains(#"did not answer the stop of service "crashy" within 2 s"#) })
        harness.bus.trigger("hello:ping", ["n": 4])
        #expect(try await events.wait(for: "hello:pong").first?.data == ["n": 4])
        // A fault while it stops is reported as the others are, and not restarted: it was
        // being disabled.
        let fault = try #require(events.events(named: "plugin:crashed").first)
        #expect(fault.data["reason"]?.stringValue?.contains(#"it did not answer the stop of service "crashy" within 2 s"#) == true, "\(fault)")
        #expect(events.count("plugin:crashed") == 1 && events.count("plugin:restarted") == 0)
        #expect(harness.host.report(for: "stubborn")?.state == .disabled)
    }

    @Test("a plugin process keeps none of the shell's descriptors (a pipe opened without CLOEXEC, here)")
    func inheritsNoDescriptors() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // without CLOEXEC, as a library may open a socket
        defer { close(ends[0]); close(ends[1]) }
        let pipeName = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox)
        #expect(await harness.host.loadAll()[id: "c-hello"]?.state == .loaded)

        // Every plugin host this process runs (other tests' too, each of which may be in the
        // instant before it closes what it inherited: looked at again for a while).
        var holders: [String] = []
        for _ in 0..<100 {
            holders = Self.pluginHosts().filter { pid in
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
                return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == pipeName }
            }
            if holders.isEmpty { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!Self.pluginHosts().isEmpty)
        #expect(holders.isEmpty, "plugin processes \(holders) kept \(pipeName)")
    }

    /// The pids of this process's children that are plugin hosts.
    static func pluginHosts() -> [String] {
        let me = getpid()
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.filter { Int32($0) != nil }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return fields.count > 1 && Int32(fields[1]) == me && command.contains("trellis-plugin-host")
        }
    }

    @Test("a handler that never returns misses the event deadline: the process is killed and reported as crashed")
    func hungHandler() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("hanging", .loopInHandler, autostart: true)
        let clock = ManualClock()
        let harness = PluginHarness(sandbox: sandbox, deadlines: PluginDeadlines(event: .seconds(1)), clock: clock.plugin)
        #expect(await harness.host.loadAll()[id: "hanging"]?.state == .loaded)
        let crashes = EventRecorder(bus: harness.bus, pattern: "plugin:*")

        harness.bus.trigger("crash:now")  // returns at once: the event is queued for the process
        clock.advance(by: .seconds(2))

        let crash = try #require(try await crashes.wait(for: "plugin:crashed").first)
        let reason = crash.data["reason"]?.stringValue ?? ""
        #expect(reason.contains(#"it did not handle event "crash:now" within 1 s"#), "\(reason)")
        _ = try await crashes.wait(for: "plugin:restarted")  // and is started again, at once
    }

    @Test("a plugin that allocates without bound stops at its memory limit: reported as crashed, with its last words",
          .enabled(if: !runsUnderSanitizer, "a sanitizer's shadow memory would count against the limit, which is off there"))
    func memoryLimit() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("eating", .eatMemoryInHandler, autostart: true)
        let harness = PluginHarness(sandbox: sandbox, memoryLimit: 128 << 20)
        #expect(await harness.host.loadAll()[id: "eating"]?.state == .loaded)
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        harness.bus.trigger("crash:now")

        let crash = try #require(try await events.wait(for: "plugin:crashed").first)
        let reason = crash.data["reason"]?.stringValue ?? ""
        #expect(reason.contains("killed by signal 6 (SIGABRT)"), "\(reason)")
        #expect(reason.contains("crashing plugin: no memory after"), "\(reason)")
        #expect(events.count("crash:handled") == 0, "the plugin filled 1 GiB past a limit of 128 MiB")
    }

    @Test("a plugin flooding the bus is slowed down to its call budget, said once, and loses nothing")
    func floodIsSlowedNotDropped() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("flooding", .floodInHandler, autostart: true)
        let clock = ManualClock()
        // The handler floods while the clock moves in steps (below): a test of the budget.
        let harness = PluginHarness(sandbox: sandbox, deadlines: .patient, clock: clock.plugin)
        #expect(await harness.host.loadAll()[id: "flooding"]?.state == .loaded)
        let ticks = EventRecorder(bus: harness.bus, pattern: "crash:tick")

        harness.bus.trigger("crash:now")

        // The burst (200) comes at once; the next tick waits for the clock, which has not moved:
        // the plugin is held back, and told so, whatever the speed of either side.
        let slowed = { harness.logs.entries.map(\.message).filter { $0.contains("slowed down to that") } }
        #expect(await eventually { !slowed().isEmpty })
        #expect(ticks.count("crash:tick") <= 201)
        // The budget refills as the clock moves: 1,500 ticks need about 3 s of it.
        #expect(await clock.advance(by: .milliseconds(100), until: { ticks.count("crash:tick") >= 1_500 }))
        let warnings = slowed()
        #expect(warnings == ["plugin flooding: it calls faster than a plugin may (5000 messages, 500 calls, 5 navigations, 50 log lines and 2 MiB of data a second); slowed down to that"])
        #expect(harness.host.report(for: "flooding")?.state == .loaded)
    }

    @Test("events queued behind a slow handler do not add up: each handler within the deadline keeps the plugin alive")
    func slowHandlerWithinDeadline() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installCrashing("slow", .slowHandler, autostart: true)
        // Five events sent at once; each handled in 1.5 s of the clock, 7.5 s in all; the
        // deadline is 2 s per event, from when the plugin could begin it. The plugin's handler
        // waits for the test's word (a file `go-N`) while the test advances the clock: each
        // 1.5 s passes inside one handler, whatever either side's speed.
        let clock = ManualClock()
        let harness = PluginHarness(sandbox: sandbox, deadlines: PluginDeadlines(event: .seconds(2)), clock: clock.plugin)
        #expect(await harness.host.loadAll()[id: "slow"]?.state == .loaded)
        let events = EventRecorder(bus: harness.bus, pattern: "*")

        for _ in 1...5 { harness.bus.trigger("crash:now") }
        for handling in 1...5 {
            // The plugin is inside its handler of event N: the one before is done.
            _ = try await events.wait(for: "crash:handling", count: handling)
            #expect(harness.eventsPending(of: "slow") == 6 - handling)
            clock.advance(by: .milliseconds(1_500))
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent("go-\(handling)").path, contents: nil))
            _ = try await events.wait(for: "crash:handled", count: handling)
        }
        #expect(await eventually { harness.eventsPending(of: "slow") == 0 })

        #expect(events.count("plugin:crashed") == 0, "\(events.messages)")
        #expect(harness.host.report(for: "slow")?.state == .loaded)
    }

    @Test("a crashed plugin is started again (at once, then after 1 s); a third crash in 5 minutes disables it until the user enables it")
    func restartPolicy() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.installCrashing("crashing", .nullInHandler, autostart: true)
        let clock = ManualClock()
        let harness = PluginHarness(sandbox: sandbox, clock: clock.plugin)
        #expect(await harness.host.loadAll()[id: "crashing"]?.state == .loaded)
        let events = EventRecorder(bus: harness.bus, pattern: "plugin:*")
        for round in 1...2 {
            harness.bus.trigger("crash:now")
            _ = try await events.wait(for: "plugin:crashed", count: round)
            if round == 2 {
                // The second restart waits a second of the clock.
                #expect(harness.host.report(for: "crashing")?.state.failure?.isCrash == true)
                clock.advance(by: .seconds(1))
            }
            _ = try await events.wait(for: "plugin:restarted", count: round)
            #expect(harness.host.report(for: "crashing")?.state == .loaded)
            #expect(harness.services.isRunning("crashy"), "its autostart service runs again")
        }
        harness.bus.trigger("crash:now")
        _ = try await events.wait(for: "plugin:crashed", count: 3)
        let state = harness.host.report(for: "crashing")?.state
        guard case .crashedTooOften(let crashes, .crashed(let how, _)) = state?.failure else {
            Issue.record("the report says \(String(describing: state))")
            return
        }
        #expect(crashes == 3)
        #expect(how == "killed by signal 11 (SIGSEGV)")
        #expect(state?.description.contains("disabled after 3 crashes in 5 minutes") == true)
        #expect(!harness.host.settings.isEnabled("crashing"))
        #expect(!harness.services.isRunning("crashy"))
        #expect(events.count("plugin:restarted") == 2)

        _ = try await harness.host.setEnabled("crashing", true)  // the user enables it again
        #expect(harness.host.report(for: "crashing")?.state == .loaded)
        #expect(harness.services.isRunning("crashy"))
    }

    @Test("the manifest's isolation key of earlier manifests is read and checked, and every plugin runs in a process")
    func isolationKey() throws {
        let manifest = try PluginManifest(json: ["id": "x", "name": "X", "version": "1", "abiVersion": 2, "library": "libx.so",
                                                 "isolation": "inProcess"], file: "plugin.json")
        #expect(manifest.id == "x")
        #expect(throws: PluginManifestError.invalidValue(file: "plugin.json", key: "isolation",
                                                         reason: #""thread" is not "process" or "inProcess""#)) {
            try PluginManifest(json: ["id": "x", "name": "X", "version": "1", "abiVersion": 2, "library": "libx.so",
                                      "isolation": "thread"], file: "plugin.json")
        }
    }
}

/// True when this test process carries ThreadSanitizer's or AddressSanitizer's runtime.
let runsUnderSanitizer: Bool = {
    let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
    return dlsym(everywhere, "__tsan_init") != nil || dlsym(everywhere, "__asan_init") != nil
}()

@Suite("Plugin settings changed from outside", .serialized)
struct PluginSettingsFollowingTests {
    @Test("trellis plugins --disable/--enable reach a running host: the plugin stops (its process ends), then answers again")
    func followsTheSettingsFile() async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let clock = ManualClock()
        // The clock moves in steps until the settings' poll has seen the file, also while the
        // plugin's process starts or stops: a test of following the settings.
        let harness = PluginHarness(sandbox: sandbox, deadlines: .patient, clock: clock.plugin)
        #expect(await harness.load()[id: "c-hello"]?.state == .loaded)
        harness.host.followSettings(interval: .milliseconds(100))
        let events = EventRecorder(bus: harness.bus, pattern: "*")
        let outside = PluginSettings(url: sandbox.settingsURL)  // what `trellis plugins --disable` writes

        try outside.setEnabled("c-hello", false)
        #expect(await clock.advance(by: .milliseconds(100), until: { events.count("plugin:disabled") == 1 }))
        #expect(try await events.wait(for: "plugin:disabled").first?.data["plugin"] == "c-hello")
        #expect(harness.host.report(for: "c-hello")?.state == .disabled)
        harness.bus.trigger("hello:ping")

        try outside.setEnabled("c-hello", true)
        #expect(await clock.advance(by: .milliseconds(100), until: { events.count("plugin:enabled") == 1 }))
        #expect(try await events.wait(for: "plugin:enabled").first?.data["state"] == "loaded")
        harness.bus.trigger("hello:ping", ["n": 2])
        let pongs = try await events.wait(for: "hello:pong")
        #expect(pongs.map(\.data) == [["n": 2]], "only the ping sent while enabled is answered")
    }
}
