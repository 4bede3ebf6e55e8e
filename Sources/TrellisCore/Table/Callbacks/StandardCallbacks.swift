/// The common callbacks: activation calls a closure or navigates to a route built from the
/// item, and selection changes call a closure (the seeds' `JLStandardCallbacks`).
///
/// The navigation closure is injected, so the table knows nothing of the router:
///
/// ```swift
/// let callbacks = StandardCallbacks(
///     route: { item in "/catalog/\(item.id)" },
///     navigate: { path in try? shell.navigate(to: path) }
/// )
/// ```
public struct StandardCallbacks: CallbackHandler {
    private let onActivate: (@MainActor (TableItem) -> Void)?
    private let onSelectionChange: (@MainActor (SelectionChange) -> Void)?

    /// Callbacks calling `onActivate` when a row is activated and `onSelectionChange` when
    /// the selection changes; either may be left out.
    public init(
        onActivate: (@MainActor (TableItem) -> Void)? = nil,
        onSelectionChange: (@MainActor (SelectionChange) -> Void)? = nil
    ) {
        self.onActivate = onActivate
        self.onSelectionChange = onSelectionChange
    }

    /// Callbacks navigating to `route(item)` through `navigate` when a row is activated.
    public init(
        route: @escaping @MainActor (TableItem) -> String,
        navigate: @escaping @MainActor (String) -> Void,
        onSelectionChange: (@MainActor (SelectionChange) -> Void)? = nil
    ) {
        self.init(
            onActivate: { item in
                let path = route(item)
                tableLogger.debug("row \(item.id) activated: navigating to \(path)")
                navigate(path)
            },
            onSelectionChange: onSelectionChange
        )
    }

    public func itemActivated(_ item: TableItem) {
        onActivate?(item)
    }

    public func selectionChanged(_ change: SelectionChange) {
        onSelectionChange?(change)
    }
}
