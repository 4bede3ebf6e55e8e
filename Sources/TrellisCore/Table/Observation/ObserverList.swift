/// An ordered list of observers of values of one type, each registered with a token.
///
/// Sources use it to announce their changes; observers run synchronously, in registration
/// order, on the main actor.
///
/// ```swift
/// let observers = ObserverList<TableChange>()
/// let token = observers.observe { change in print(change) }
/// observers.announce(.insert(TableIndexPath(row: 0)))
/// ```
@MainActor
public final class ObserverList<Value> {
    private var observers: [(id: Int, handler: @MainActor (Value) -> Void)] = []
    private var nextID = 0

    /// An empty list.
    public init() {}

    /// Registers `handler`; it stays registered while the returned token lives.
    public func observe(_ handler: @escaping @MainActor (Value) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        observers.append((id, handler))
        return ObservationToken { [weak self] in
            self?.observers.removeAll { $0.id == id }
        }
    }

    /// Calls every registered observer with `value`, in registration order.
    public func announce(_ value: Value) {
        for observer in observers {
            observer.handler(value)
        }
    }

    /// Whether any observer is registered.
    public var isEmpty: Bool { observers.isEmpty }
}

/// The change announcements of a ``TableSource``.
public typealias TableChangeObservers = ObserverList<TableChange>
