import CGtk
import Foundation
@testable import TrellisGtk
import XCTest

/// The main-queue bridge: Swift concurrency's main actor runs inside a GLib main loop.
/// XCTest runs these on the process's main thread, the thread GTK owns in the app.
final class MainQueueBridgeTests: XCTestCase {
    /// Runs a GLib main loop on this (main) thread until `quit` is called or `timeout` passes.
    /// Returns `true` when it was quit before the timeout.
    private func runLoop(timeout: TimeInterval, _ start: (_ quit: @escaping @Sendable () -> Void) -> Void) -> Bool {
        let loop = g_main_loop_new(nil, 0)!
        defer { g_main_loop_unref(loop) }
        let quitBox = LoopBox(loop)
        start { quitBox.quit() }
        let timer = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(timeout * 1000), { data in
            let box = Unmanaged<LoopBox>.fromOpaque(data!).takeUnretainedValue()
            box.timedOut = true
            g_main_loop_quit(box.loop)
            return 0
        }, Unmanaged.passRetained(quitBox).toOpaque(), { data in Unmanaged<LoopBox>.fromOpaque(data!).release() })
        g_main_loop_run(loop)
        if !quitBox.timedOut { g_source_remove(timer) }
        return !quitBox.timedOut
    }

    func testMainActorTaskStartedOnABackgroundThreadCompletesInsideTheGLibLoop() {
        XCTAssertTrue(MainQueueBridge.install())
        let result = ResultBox()
        let finished = runLoop(timeout: 5) { quit in
            Thread.detachNewThread {
                Task { @MainActor in
                    result.ranOnMainThread = Thread.isMainThread
                    quit()
                }
            }
        }
        XCTAssertTrue(finished, "the main-actor task did not run within 5 s of GLib main loop")
        XCTAssertEqual(result.ranOnMainThread, true)
    }

    func testDispatchMainAsyncAndAwaitMainActorRunFromADetachedTask() {
        XCTAssertTrue(MainQueueBridge.install())
        let result = ResultBox()
        let finished = runLoop(timeout: 5) { quit in
            Task.detached {
                let value = await MainActor.run { Thread.isMainThread ? 42 : -1 }
                DispatchQueue.main.async {
                    result.value = value
                    quit()
                }
            }
        }
        XCTAssertTrue(finished)
        XCTAssertEqual(result.value, 42)
    }

    func testAnIdleLoopDoesNotSpin() {
        XCTAssertTrue(MainQueueBridge.install())
        // Use the bridge once so its eventfd has been signalled and read at least once.
        _ = runLoop(timeout: 2) { quit in DispatchQueue.main.async { quit() } }
        let wakeupsBefore = MainQueueBridge.wakeups
        let quitEarly = runLoop(timeout: 1) { _ in }
        let wakeups = MainQueueBridge.wakeups - wakeupsBefore
        XCTAssertFalse(quitEarly)
        // A spinning bridge (an eventfd never read) wakes the loop some 200,000 times in that
        // second; an idle one not at all, whatever the machine's load.
        XCTAssertLessThan(wakeups, 5, "the bridge woke \(wakeups) times while nothing was queued")
    }
}

// These boxes cross into GLib callbacks and a background thread; the tests touch them only
// from the main thread after the loop has stopped, or once from the main actor, so there is no
// concurrent access.
private final class LoopBox: @unchecked Sendable {
    let loop: OpaquePointer
    var timedOut = false
    init(_ loop: OpaquePointer) { self.loop = loop }
    func quit() { g_main_loop_quit(loop) }
}

// Written once on the main actor inside the loop, read after the loop returned (same thread).
private final class ResultBox: @unchecked Sendable {
    var ranOnMainThread: Bool?
    var value: Int?
}

