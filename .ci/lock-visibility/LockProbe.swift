// One deliberate use of one lock primitive, run under ThreadSanitizer by .ci/lock-visibility/check:
//
//     lock-probe PRIMITIVE USE
//
// Two threads add to one shared counter. USE says how the counter is guarded:
//   two-locks    each thread holds a lock of its own (a race TSan must report);
//   one-side     one thread holds the lock, the other none (a race TSan must report);
//   uncontended  both hold the same lock, one thread after the other (TSan must stay silent);
//   contended    both hold the same lock, the second waiting while the first holds it (TSan
//                must stay silent).
// The counter is a plain stored property, so TSan sees every access. Nothing else orders the
// two threads' accesses: raw pthreads, joined only at the end; "one after the other" and "while
// the first holds it" are signalled through a relaxed atomic, which TSan does not count as
// synchronisation. Every code path runs once on the main thread first, so no lazy
// initialisation in the runtime (which takes locks) happens between the threads' accesses.
import Dispatch
import Foundation
import Synchronization
import TrellisShared

#if canImport(Glibc)
import Glibc
#endif

/// The shared counter, deliberately unguarded by itself.
// Its accesses are what the probe races on purpose; that is the point of the program.
final class Counter: @unchecked Sendable {
    var value = 0
}

/// A lock primitive as the probe uses it: `withLock` runs its body with the lock held.
protocol Guard: Sendable {
    func withLock(_ body: () -> Void)
}

/// `Synchronization.Mutex`, guarding nothing of its own (the counter lives outside).
final class MutexGuard: Guard {
    let mutex = Mutex(())
    func withLock(_ body: () -> Void) { mutex.withLock { _ in body() } }
}

final class NSLockGuard: Guard {
    let lock = NSLock()
    func withLock(_ body: () -> Void) { lock.withLock(body) }
}

final class NSRecursiveLockGuard: Guard {
    let lock = NSRecursiveLock()
    func withLock(_ body: () -> Void) { lock.withLock(body) }
}

/// TrellisShared's `LockedState`, as the project builds it (a module of its own).
final class LockedStateGuard: Guard {
    let state = LockedState(0)
    func withLock(_ body: () -> Void) { state.withLock { _ in body() } }
}

/// A serial `DispatchQueue` used as a lock through `sync`.
final class SerialQueueGuard: Guard {
    let queue = DispatchQueue(label: "lock-probe")
    func withLock(_ body: () -> Void) { queue.sync(execute: body) }
}

/// `Synchronization.Atomic` as a spin lock: acquiring compare-exchange, releasing store.
final class AtomicSpinGuard: Guard {
    let held = Atomic(false)
    func withLock(_ body: () -> Void) {
        while !held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        body()
        held.store(false, ordering: .releasing)
    }
}

let primitives: [String: () -> any Guard] = [
    "Mutex": MutexGuard.init,
    "NSLock": NSLockGuard.init,
    "NSRecursiveLock": NSRecursiveLockGuard.init,
    "LockedState": LockedStateGuard.init,
    "DispatchQueue.sync": SerialQueueGuard.init,
    "Atomic": AtomicSpinGuard.init,
]

/// A thread's work, passed to `pthread_create` as a retained context.
final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Starts both bodies on threads of their own, then waits for both.
func runConcurrently(_ bodies: [() -> Void]) {
    var threads: [pthread_t] = []
    for body in bodies {
        var thread = pthread_t()
        // Unmanaged: pthread_create takes a C context; the thread takes the reference back.
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// A thread's progress as the other sees it: relaxed, so it orders nothing for TSan.
let progress = Atomic(0)

func waitFor(_ step: Int) {
    while progress.load(ordering: .relaxed) < step {}
}

let uses = ["two-locks", "one-side", "uncontended", "contended"]
let arguments = CommandLine.arguments
guard arguments.count == 3, let make = primitives[arguments[1]], uses.contains(arguments[2]) else {
    let names = primitives.keys.sorted().joined(separator: "|")
    FileHandle.standardError.write(Data("usage: lock-probe \(names) \(uses.joined(separator: "|"))\n".utf8))
    exit(2)
}
let use = arguments[2]
let counter = Counter()
let first = make()
let second = use == "two-locks" ? make() : first
let bodies: [() -> Void]
switch use {
case "uncontended":
    bodies = [
        { for _ in 0..<100 { first.withLock { counter.value += 1 } }; progress.store(1, ordering: .relaxed) },
        { waitFor(1); for _ in 0..<100 { second.withLock { counter.value += 1 } } },
    ]
case "contended":
    // The second thread asks for the lock while the first sleeps holding it (50 ms is ample
    // time to reach the lock's wait), so it waits and is handed the lock.
    bodies = [
        { first.withLock { progress.store(1, ordering: .relaxed); usleep(50_000); counter.value += 1 } },
        { waitFor(1); second.withLock { counter.value += 1 } },
    ]
default:
    let unguarded: () -> Void = { for _ in 0..<100 { counter.value += 1 } }
    bodies = [
        { for _ in 0..<100 { first.withLock { counter.value += 1 } } },
        use == "one-side" ? unguarded : { for _ in 0..<100 { second.withLock { counter.value += 1 } } },
    ]
}
for body in bodies { body() }
progress.store(0, ordering: .relaxed)
runConcurrently(bodies)
print("\(arguments[1]) \(use): \(counter.value)")
