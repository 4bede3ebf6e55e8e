/// How to make a control object of either family: a background one (security, validation,
/// business) or a main-actor one (view, error).
enum ControlObjectFactory: Sendable {
    case background(@Sendable () -> any ControlObject)
    case mainActor(@MainActor @Sendable () -> any ViewControlObject)
}

/// Control objects by name, so a configuration can map commands by type name as the seeds
/// did (`mapCommandToBCO:withObject:@"SaveNoteBCO"`), with a clear error for a name that
/// does not exist instead of the seeds' silent no-op.
///
/// ```swift
/// let objects = ControlObjectRegistry()
/// try objects.register(NoteTitleValidation.self) { NoteTitleValidation() }
/// try objects.register(ShowNotesView.self) { ShowNotesView(window: window) }
/// let controller = FrontController(bus: bus, objects: objects)
/// try controller.map(.validation, command: "addNote", named: "NoteTitleValidation")
/// ```
public final class ControlObjectRegistry: Sendable {
    private let factories = LockedState<[String: ControlObjectFactory]>([:])

    /// Creates an empty registry.
    public init() {}

    /// Registers a security, validation or business object type under `name` (by default the
    /// type's name). The factory is called for every request the object takes part in.
    /// - Throws: ``ControlError/duplicateObjectName(_:)``.
    public func register<Object: ControlObject>(
        _ type: Object.Type, name: String? = nil, _ factory: @escaping @Sendable () -> Object
    ) throws {
        try add(name ?? String(describing: type), .background { factory() })
    }

    /// Registers a view or error object type under `name` (by default the type's name). The
    /// factory is called on the main actor for every request the object takes part in.
    /// - Throws: ``ControlError/duplicateObjectName(_:)``.
    public func register<Object: ViewControlObject>(
        _ type: Object.Type, name: String? = nil, _ factory: @escaping @MainActor @Sendable () -> Object
    ) throws {
        try add(name ?? String(describing: type), .mainActor { factory() })
    }

    /// Every registered name, sorted.
    public var names: [String] {
        factories.withLock { $0.keys.sorted() }
    }

    func factory(named name: String) -> ControlObjectFactory? {
        factories.withLock { $0[name] }
    }

    private func add(_ name: String, _ factory: ControlObjectFactory) throws {
        try factories.withLock { factories throws(ControlError) in
            guard factories[name] == nil else { throw .duplicateObjectName(name) }
            factories[name] = factory
        }
    }
}
