/// Keeps an observation alive: the observer stays registered until the token is cancelled
/// or released.
///
/// ```swift
/// let token = container.onFlatChanges { changes in model.apply(changes) }
/// // ... later
/// token.cancel()   // or let the token go
/// ```
@MainActor
public final class ObservationToken {
    private var cancellation: (@MainActor () -> Void)?

    /// A token that runs `cancellation` once, on `cancel()` or when released.
    public init(cancellation: @escaping @MainActor () -> Void) {
        self.cancellation = cancellation
    }

    /// Unregisters the observer. Calling it again does nothing.
    public func cancel() {
        let action = cancellation
        cancellation = nil
        action?()
    }

    /// Whether `cancel()` has run.
    public var isCancelled: Bool { cancellation == nil }

    isolated deinit {
        cancel()
    }
}
