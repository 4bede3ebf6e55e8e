import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

/// The inbox of a plugin process's messages (see `PluginInbox`): in order, one at a time, never
/// stuck behind a handler that waits for the plugin. (The plugin tests run in both isolation
/// modes exercise it end to end; these pin its rules.)
@Suite("Plugin process inbox")
struct PluginInboxTests {
    /// An inbox whose handler records each message's "n" and runs `also` on it.
    private static func inbox(_ trace: Trace, also: @escaping @Sendable (JSONValue) -> Void = { _ in }) -> PluginInbox<JSONValue> {
        let inbox = PluginInbox<JSONValue>(label: "test.inbox", capacity: 16)
        inbox.setHandler { message in
            trace.record(message["n"]?.stringValue ?? "?")
            also(message)
        }
        return inbox
    }

    @Test("messages are handled in the order they came, one at a time, past a full inbox")
    func inOrder() async throws {
        let trace = Trace()
        let running = LockedState(0)
        let overlapped = LockedState(false)
        let inbox = Self.inbox(trace) { _ in
            if running.withLock({ $0 += 1; return $0 }) > 1 { overlapped.withLock { $0 = true } }
            running.withLock { $0 -= 1 }
        }
        await offThePool {
            for n in 0..<200 { inbox.add(["n": .string("\(n)")]) }
        }
        let handled = try await trace.wait(until: { $0.count == 200 })
        #expect(handled == (0..<200).map { "\($0)" })
        #expect(!overlapped.withLock { $0 })
    }

    @Test("a handler may wait for an answer that comes after it: it handles the messages between meanwhile")
    func nestedWait() async throws {
        let trace = Trace()
        let answered = LockedState(false)
        let inboxBox = LockedState<PluginInbox<JSONValue>?>(nil)
        let inbox = Self.inbox(trace) { message in
            switch message["n"]?.stringValue {
            case "answer": answered.withLock { $0 = true }
            case "call":
                let inbox = inboxBox.withLock { $0 }!
                let got = inbox.wait(until: { answered.withLock { $0 } }, deadline: Date(timeIntervalSinceNow: 60))
                trace.record("call returned \(got)")
            default: break
            }
        }
        inboxBox.withLock { $0 = inbox }
        for n in ["call", "between", "answer", "after"] { inbox.add(["n": .string(n)]) }
        let handled = try await trace.wait(until: { $0.count == 5 })
        #expect(handled == ["call", "between", "answer", "call returned true", "after"])
    }

    @Test("an answer skips the queue when a handler on another thread is busy: the waiter goes on")
    func answerOutOfTurn() async throws {
        let trace = Trace()
        let release = DispatchSemaphore(value: 0)
        let answered = LockedState(false)
        let inbox = Self.inbox(trace) { message in
            switch message["n"]?.stringValue {
            case "busy": release.wait()  // a watcher waiting for the thread below, say
            case "answer": answered.withLock { $0 = true }
            default: break
            }
        }
        inbox.add(["n": "busy"])
        try await trace.wait(until: { $0 == ["busy"] })
        let waiter = LockedState<pthread_t?>(nil)
        let waited = Task.detached {
            await offThePool {
                waiter.withLock { $0 = pthread_self() }
                return inbox.wait(until: { answered.withLock { $0 } }, deadline: Date(timeIntervalSinceNow: 60))
            }
        }
        #expect(await eventually { waiter.withLock { $0 } != nil })
        inbox.add(["n": "answer"], awaitedBy: waiter.withLock { $0 })
        #expect(await waited.value, "the answer waited behind the busy handler")
        #expect(trace.all == ["busy", "answer"])
        release.signal()
    }
}
