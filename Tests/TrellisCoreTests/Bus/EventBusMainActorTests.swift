import Foundation
import Testing
@testable import TrellisCore
import TrellisTesting

@Suite("EventBus main-actor delivery")
struct EventBusMainActorTests {
    @Test("a main-actor watcher triggered from another thread runs on the main queue")
    func runsOnMainQueueFromAnyThread() async {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watchOnMainActor("done", owner: owner) { _, event in
            recorder.record("\(event.data) main=\(MainQueueProbe.isOnMainQueue)")
        }

        await Task.detached { bus.trigger("done", 1) }.value

        #expect(await eventually { !recorder.all.isEmpty })
        #expect(recorder.all == ["1 main=true"])
    }

    @Test("triggered on the main actor, a main-actor watcher still runs only after trigger returns")
    @MainActor
    func runsAfterTriggerReturns() async {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watchOnMainActor("done", owner: owner) { _, _ in recorder.record("delivered") }

        bus.trigger("done")
        recorder.record("trigger returned")

        #expect(await eventually { recorder.all.count == 2 })
        #expect(recorder.all == ["trigger returned", "delivered"])
    }

    @Test("main-actor deliveries run in trigger order, synchronous ones at once")
    func triggerOrder() async {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watchOnMainActor("step", owner: owner) { _, event in recorder.record("main \(event.data)") }
        bus.watch("step", owner: owner) { _, event in recorder.record("sync \(event.data)") }

        await Task.detached {
            for step in 1...50 { bus.trigger("step", .number(Double(step))) }
        }.value

        #expect(await eventually { recorder.all.count == 100 })
        let main = recorder.all.filter { $0.hasPrefix("main") }
        let sync = recorder.all.filter { $0.hasPrefix("sync") }
        #expect(main == (1...50).map { "main \($0)" })
        #expect(sync == (1...50).map { "sync \($0)" })
    }

    @Test("a main-actor delivery still queued is dropped when its watch ends first")
    @MainActor
    func queuedDeliveryDroppedAfterUnwatch() async {
        let bus = EventBus()
        let owner = WatchOwner()
        let recorder = Trace()
        bus.watchOnMainActor("late", owner: owner) { _, _ in recorder.record("late") }
        bus.watchOnMainActor("marker", owner: owner) { _, _ in recorder.record("marker") }

        // On the main actor, nothing queued can run until this function suspends.
        bus.trigger("late")
        bus.unwatch(owner: owner, message: "late")
        bus.trigger("marker")

        #expect(await eventually { !recorder.all.isEmpty })
        #expect(recorder.all == ["marker"])
    }

    @Test("watchOnMainActor gives an isolated handler its owner")
    func watchOnMainActorPassesOwner() async {
        @MainActor final class Spinner {
            var isVisible = false
        }
        let bus = EventBus()
        let spinner = Spinner()
        bus.watchOnMainActor("activity:changed", owner: spinner) { spinner, event in
            MainActor.assertIsolated()
            spinner.isVisible = event.data["active"]?.boolValue ?? false
        }

        await Task.detached { bus.trigger("activity:changed", ["active": true]) }.value

        #expect(await eventually { await spinner.isVisible })
    }
}
