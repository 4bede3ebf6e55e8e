/// Common tables in a line or two (the seeds' "utility routines that quickly create common
/// tables").
extension TableContainer {
    /// A searchable list of `elements` by description, optionally in sections; activating
    /// a row navigates to the route built from its item.
    ///
    /// ```swift
    /// let catalog = TableContainer.list(of: genres, route: { "/catalog/\($0.id)" },
    ///                                   navigate: { try? shell.navigate(to: $0) })
    /// ```
    /// Plain elements get serial identities: an element's identity is its index in
    /// `elements` (see ``ArraySource``).
    public static func list<Element>(
        of elements: [Element],
        sectionedBy sectionKey: ((Element) -> String)? = nil,
        searchable: Bool = true,
        route: @escaping @MainActor (TableItem) -> String,
        navigate: @escaping @MainActor (String) -> Void
    ) -> TableContainer {
        list(
            ArraySource(elements, sectionedBy: sectionKey),
            searchable: searchable,
            callbacks: StandardCallbacks(route: route, navigate: navigate)
        )
    }

    /// A list of `source`'s items by description.
    ///
    /// ```swift
    /// let events = TableContainer.list(eventLog, callbacks: StandardCallbacks(onActivate: { show($0) }))
    /// ```
    public static func list(
        _ source: any TableSource,
        searchable: Bool = true,
        callbacks: any CallbackHandler = StandardCallbacks()
    ) -> TableContainer {
        TableContainer(source: source, callbacks: callbacks, searchable: searchable)
    }

    /// A checklist: `source`'s items by description with a checkbox each, multiple
    /// selection, `onSelectionChange` called as boxes are ticked and unticked. Activating a
    /// row (a click anywhere on it) ticks or unticks its box.
    ///
    /// ```swift
    /// let favourites = TableContainer.checklist(ArraySource(genres)) { change in
    ///     store.saveFavourites(change.selected)
    /// }
    /// ```
    public static func checklist(
        _ source: any TableSource,
        searchable: Bool = true,
        onSelectionChange: (@MainActor (SelectionChange) -> Void)? = nil
    ) -> TableContainer {
        let container = TableContainer(
            source: source,
            cells: SelectionCellProvider(wrapping: DescriptionCellProvider()),
            callbacks: StandardCallbacks(onSelectionChange: onSelectionChange),
            selectionMode: .multiple,
            searchable: searchable
        )
        container.activationToggles = true
        return container
    }

    /// A table of records showing the values of `keys`, one column each, with single
    /// selection.
    ///
    /// ```swift
    /// let people = TableContainer.records(ArraySource(persons), keys: ["firstName", "lastName", "age"])
    /// ```
    public static func records(
        _ source: any TableSource,
        keys: [String],
        searchable: Bool = true,
        callbacks: any CallbackHandler = StandardCallbacks()
    ) -> TableContainer {
        TableContainer(
            source: source,
            cells: KeyValueCellProvider(keys: keys),
            callbacks: callbacks,
            selectionMode: .single,
            searchable: searchable
        )
    }

    /// A table of records in `columns`, one per key with its title, with single selection:
    /// the GTK front end shows it as a `GtkColumnView` (resizable columns, click a header
    /// to sort with ``sort(by:ascending:)``), headless as aligned columns under a header line.
    ///
    /// ```swift
    /// let people = TableContainer.records(ArraySource(persons), columns: [
    ///     TableColumn(key: "firstName", title: tr("First name")),
    ///     TableColumn(key: "age", title: tr("Age")),
    /// ])
    /// ```
    public static func records(
        _ source: any TableSource,
        columns: [TableColumn],
        searchable: Bool = true,
        callbacks: any CallbackHandler = StandardCallbacks()
    ) -> TableContainer {
        TableContainer(
            source: source,
            cells: KeyValueCellProvider(columns: columns),
            callbacks: callbacks,
            selectionMode: .single,
            searchable: searchable
        )
    }
}
