import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
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

    /// A thread of its own waiting in `inbox` until `answered` holds: the thread, and the
    /// task that ends with what the wait returned.
    private static func waitingThread(_ inbox: PluginInbox<JSONValue>, until answered: LockedState<Bool>)
        async throws -> (pthread_t, Task<Bool, Never>) {
        let waiter = LockedState<pthread_t?>(nil)
        let waited = Task.detached {
            await offThePool {
                waiter.withLock { $0 = pthread_self() }
                return inbox.wait(until: { answered.withLock { $0 } }, deadline: Date(timeIntervalSinceNow: 60))
            }
        }
        #expect(await eventually { waiter.withLock { $0 } != nil })
        return (try #require(waiter.withLock { $0 }), waited)
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
        let (waiter, waited) = try await Self.waitingThread(inbox, until: answered)
        inbox.add(["n": "answer"], awaitedBy: waiter)
        #expect(await waited.value, "the answer waited behind the busy handler")
        #expect(trace.all == ["busy", "answer"])
        release.signal()
    }

    @Test("a handler long on one message, now finishing it, keeps the next answer in turn: the waiter gives it stuckAfter of its own wait")
    func finishingHandlerIsNotStuck() async throws {
        let trace = Trace()
        let (held, finishing) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let answered = LockedState(false)
        let inbox = PluginInbox<JSONValue>(label: "test.inbox", capacity: 16, stuckAfter: .seconds(1))
        inbox.setHandler { message in
            trace.record(message["n"]?.stringValue ?? "?")
            switch message["n"]?.stringValue {
            case "slow":
                held.wait()  // a watcher held by the waiting thread's previous call, say
                finishing.wait()  // the rest of that watcher, after the call ended
            case "answer": answered.withLock { $0 = true }
            default: break
            }
        }
        inbox.add(["n": "slow"])
        try await trace.wait(until: { $0 == ["slow"] })
        try await Task.sleep(for: .milliseconds(1_100))  // longer on "slow" than stuckAfter
        held.signal()

        let (waiter, waited) = try await Self.waitingThread(inbox, until: answered)
        inbox.add(["n": "before"])  // a watch the plugin's start registers, say
        inbox.add(["n": "answer"], awaitedBy: waiter)
        // Time to take the answer out of turn, were a handler on one message since before the
        // wait stuck; far less than stuckAfter of the wait.
        try await Task.sleep(for: .milliseconds(100))
        finishing.signal()

        #expect(await waited.value)
        #expect(trace.all == ["slow", "before", "answer"], "the answer was taken out of turn from a handler that was finishing")
    }

    @Test("the reader handles a message itself when nothing else is handled or waited for; else it leaves it to the thread waiting")
    func handledByTheReaderWhenIdle() async throws {
        let trace = Trace()
        let threads = LockedState<[String: pthread_t]>([:])
        let answered = LockedState(false)
        let inbox = Self.inbox(trace) { message in
            let name = message["n"]?.stringValue ?? "?"
            threads.withLock { $0[name] = pthread_self() }
            if name == "answer" { answered.withLock { $0 = true } }
        }
        let reader = LockedState<pthread_t?>(nil)
        await offThePool {
            reader.withLock { $0 = pthread_self() }
            inbox.add(["n": "alone"], handlingItHereIfIdle: true)
        }
        #expect(trace.all == ["alone"], "not handled before add returned")
        let readerThread = try #require(reader.withLock { $0 })
        #expect(threads.withLock { $0["alone"] }.map { pthread_equal($0, readerThread) != 0 } == true)

        // A thread waiting for an answer handles what comes meanwhile, as before.
        let (waiterThread, waited) = try await Self.waitingThread(inbox, until: answered)
        await offThePool {
            inbox.add(["n": "meanwhile"], handlingItHereIfIdle: true)
            inbox.add(["n": "answer"], awaitedBy: waiterThread, handlingItHereIfIdle: true)
        }
        #expect(await waited.value)
        #expect(trace.all == ["alone", "meanwhile", "answer"])
        #expect(threads.withLock { $0["meanwhile"] }.map { pthread_equal($0, waiterThread) != 0 } == true)
    }

    @Test("a thread waiting for an answer that is not there, behind a handler stuck on another thread, says so (a new reader may be needed)")
    func stuckHandlerReported() async throws {
        let trace = Trace()
        let release = DispatchSemaphore(value: 0)
        let answered = LockedState(false)
        let reported = LockedState(0)
        let inbox = PluginInbox<JSONValue>(label: "test.inbox", capacity: 16)
        inbox.setHandler({ message in
            trace.record(message["n"]?.stringValue ?? "?")
            switch message["n"]?.stringValue {
            case "busy": release.wait()
            case "answer": answered.withLock { $0 = true }
            default: break
            }
        }, whenStuck: { reported.withLock { $0 += 1 } })
        inbox.add(["n": "busy"])
        try await trace.wait(until: { $0 == ["busy"] })
        let (waiter, waited) = try await Self.waitingThread(inbox, until: answered)

        #expect(await eventually { reported.withLock { $0 } > 0 })
        inbox.add(["n": "answer"], awaitedBy: waiter)
        #expect(await waited.value)
        release.signal()
    }
}

