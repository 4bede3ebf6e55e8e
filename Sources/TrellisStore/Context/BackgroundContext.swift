import Dispatch

/// A context that lives on its own serial dispatch queue, off the main thread: for
/// imports and other bulk work. It saves through the same store, so fetched results and
/// the `store:did-save` event see its saves like any other. Undo is off.
///
/// ```swift
/// let importer = store.newBackgroundContext()
/// let count = try await importer.perform { context in
///     for title in titles {
///         let note = try context.insert("Note")
///         note["title"] = .string(title)
///         note["created"] = .date(Date()); note["updated"] = .date(Date())
///     }
///     try context.save()
///     return titles.count
/// }
/// ```
public actor BackgroundContext {
    private let executor: QueueExecutor
    private let context: ManagedObjectContext

    /// The store the context saves into.
    public nonisolated let store: PersistentStore

    init(store: PersistentStore, label: String) {
        self.store = store
        self.executor = QueueExecutor(label: label)
        self.context = ManagedObjectContext(store: store, undoEnabled: false)
    }

    /// The context's own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `body` with the context, on the context's queue.
    public func perform<T: Sendable>(_ body: @Sendable (ManagedObjectContext) throws -> T) throws -> T {
        try body(context)
    }
}

extension PersistentStore {
    /// A new context with its own serial queue, for work off the main thread.
    public func newBackgroundContext(label: String = "trellis.store.background") -> BackgroundContext {
        BackgroundContext(store: self, label: label)
    }
}

/// Runs an actor's jobs on a serial dispatch queue of its own, so that long SQLite work
/// does not occupy the cooperative thread pool.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
