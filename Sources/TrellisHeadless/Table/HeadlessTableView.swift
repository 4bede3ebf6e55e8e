import TrellisCore

/// A table container shown as text, one line per flat row, taking clicks, checkbox toggles
/// and typing into the search field: the headless counterpart of a `GtkListView`.
///
/// Like a GTK list view, it keeps its own copy of the rows and updates it only from the
/// container's change announcements, so a test that compares ``lines`` with a fresh
/// ``render()`` checks that the announced changes are right.
///
/// ```swift
/// let view = HeadlessTableView(container: TableContainer.checklist(ArraySource(["Мистика", "Киберпанк"])))
/// try view.toggle(text: "Киберпанк")
/// assert(view.lines == ["[ ] Мистика", "[x] Киберпанк"])
/// view.type("мис")
/// assert(view.lines == ["[ ] Мистика"])
/// ```
///
/// Lines: a section header is `== Title ==`; an item is its columns joined by " | ",
/// after `[x] ` or `[ ] ` when it has a checkbox, and followed by ` (selected)` when it is
/// selected and has no checkbox to show it.
@MainActor
public final class HeadlessTableView {
    /// The container shown.
    public let container: TableContainer
    /// The rows as shown, kept up to date from the announced changes only.
    public private(set) var lines: [String] = []
    /// Every change announced since the view was made, in order.
    public private(set) var deliveredChanges: [FlatChange] = []
    /// Announcements that did not fit the rows shown (out of range, or leaving a count
    /// other than the container's): always empty when the container announces correctly.
    public private(set) var inconsistencies: [String] = []
    private var observation: ObservationToken?

    /// A view of `container`, showing its rows as they are now.
    public init(container: TableContainer) {
        self.container = container
        lines = render()
        observation = container.onFlatChanges { [weak self] changes in
            self?.apply(changes)
        }
    }

    /// The lines joined by newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// The search field's text.
    public var searchText: String { container.searchText }

    /// Every row rendered afresh from the container (not from the announced changes).
    public func render() -> [String] {
        (0..<container.flatCount).compactMap { container.flatRow(at: $0).map(Self.line(for:)) }
    }

    /// The line showing `row`.
    public static func line(for row: FlatRow) -> String {
        switch row {
        case .header(let title, _):
            return "== \(title) =="
        case .item(_, let cell):
            let box = cell.checkbox.map { $0 ? "[x] " : "[ ] " } ?? ""
            let mark = cell.isSelected && cell.checkbox == nil ? " (selected)" : ""
            return box + cell.text + mark
        }
    }

    // MARK: - Input

    /// Clicks row `index`: activates its item.
    public func click(row index: Int) throws(HeadlessTableError) {
        try perform { () throws(TableContainerError) in try container.activate(flatIndex: index) }
    }

    /// Clicks the first row whose cell text (columns joined by " | ") is `text`, else whose
    /// first column is (``index(of:)``).
    public func click(text: String) throws(HeadlessTableError) {
        try click(row: index(of: text))
    }

    /// Toggles the checkbox (the selection) of row `index`.
    public func toggle(row index: Int) throws(HeadlessTableError) {
        try perform { () throws(TableContainerError) in try container.toggle(flatIndex: index) }
    }

    /// Toggles the checkbox of the first row whose cell text, else first column, is `text`.
    public func toggle(text: String) throws(HeadlessTableError) {
        try toggle(row: index(of: text))
    }

    /// Selects row `index` (a plain selection click).
    public func select(row index: Int) throws(HeadlessTableError) {
        try perform { () throws(TableContainerError) in try container.select(flatIndex: index) }
    }

    /// Selects the first row whose cell text, else first column, is `text`.
    public func select(text: String) throws(HeadlessTableError) {
        try select(row: index(of: text))
    }

    /// Types `text` at the end of the search field, one character at a time, as a user
    /// does (each keystroke filters).
    public func type(_ text: String) {
        for character in text {
            container.searchText.append(character)
        }
    }

    /// Deletes the last character of the search field (Backspace).
    public func deleteBackward() {
        guard !container.searchText.isEmpty else { return }
        container.searchText.removeLast()
    }

    /// Empties the search field.
    public func clearSearch() {
        container.searchText = ""
    }

    // MARK: - Helpers

    /// The first shown item row whose cell text (columns joined by " | ") is `text`; failing
    /// that, the first whose first column is `text` (a row by its title, as a person names it).
    public func index(of text: String) throws(HeadlessTableError) -> Int {
        for index in 0..<container.flatCount {
            if case .item(_, let cell) = container.flatRow(at: index), cell.text == text { return index }
        }
        for index in 0..<container.flatCount {
            if case .item(_, let cell) = container.flatRow(at: index), cell.columns.first == text { return index }
        }
        throw .noRow(text: text, shown: container.flatCount)
    }

    private func perform(_ action: () throws(TableContainerError) -> Void) throws(HeadlessTableError) {
        do {
            try action()
        } catch {
            throw .rejected(error)
        }
    }

    private func apply(_ changes: [FlatChange]) {
        for change in changes {
            deliveredChanges.append(change)
            let end = change.position + change.removed
            guard change.position >= 0, change.removed >= 0, change.added >= 0, end <= lines.count else {
                inconsistencies.append("change \(change) does not fit \(lines.count) shown row(s)")
                continue
            }
            let added = (change.position..<(change.position + change.added)).map { index in
                container.flatRow(at: index).map(Self.line(for:)) ?? "<missing row \(index)>"
            }
            lines.replaceSubrange(change.position..<end, with: added)
        }
        if lines.count != container.flatCount {
            inconsistencies.append(
                "after \(changes) the view shows \(lines.count) row(s), the container \(container.flatCount)"
            )
        }
    }
}

/// Why a headless table refused a click, a toggle or a selection.
public enum HeadlessTableError: Error, CustomStringConvertible, Equatable {
    /// No shown item row has the cell text `text`; `shown` rows are shown.
    case noRow(text: String, shown: Int)
    /// The container refused the action.
    case rejected(TableContainerError)

    public var description: String {
        switch self {
        case .noRow(let text, let shown):
            return "no row reads \"\(text)\" among the \(shown) row(s) shown"
        case .rejected(let error):
            return error.description
        }
    }
}
