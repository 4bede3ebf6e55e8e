import Dispatch

/// Tells, without trapping, whether the caller runs on the main queue: the main actor's
/// executor on Linux.
///
/// `Thread.isMainThread` cannot tell this under `swift test`: the test runner parks the main
/// thread in `dispatchMain()`, which exits it and lets a pool thread drain the main queue.
/// Under GTK, the main-queue bridge drains it on the real main thread instead.
///
/// ```swift
/// bus.watchOnMainActor("note:saved", owner: self) { _, _ in assert(MainQueueProbe.isOnMainQueue) }
/// ```
public enum MainQueueProbe {
    private static let key = DispatchSpecificKey<Bool>()
    private static let installed: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// Whether the current code runs on the main queue.
    public static var isOnMainQueue: Bool {
        precondition(installed)
        return DispatchQueue.getSpecific(key: key) ?? false
    }
}
