/// What a row shows: its column texts, an optional checkbox and its selection state.
///
/// Front ends bind it to a row widget (GTK) or render it as a line of text (headless).
///
/// ```swift
/// let cell = Cell(columns: ["Ада", "Лавлейс", "36"])
/// assert(cell.text == "Ада | Лавлейс | 36")
/// assert(cell.accessibleLabel == "Ада, Лавлейс, 36")
/// ```
public struct Cell: Sendable, Equatable {
    /// The texts of the row's columns, in order.
    public var columns: [String]
    /// The checkbox state, or `nil` when the row has no checkbox.
    public var checkbox: Bool?
    /// Whether the row's item is selected (set by the container from its selection).
    public var isSelected: Bool
    /// What assistive technologies read for the row.
    public var accessibleLabel: String

    /// A cell with `columns`; the accessible label defaults to the non-empty columns joined
    /// by ", ".
    public init(columns: [String], checkbox: Bool? = nil, isSelected: Bool = false, accessibleLabel: String? = nil) {
        self.columns = columns
        self.checkbox = checkbox
        self.isSelected = isSelected
        self.accessibleLabel =
            accessibleLabel ?? (columns.count == 1 ? columns[0] : columns.filter { !$0.isEmpty }.joined(separator: ", "))
    }

    /// The columns joined by " | ": the row's text for searching and for text front ends.
    public var text: String { columns.joined(separator: " | ") }
}

/// What a cell provider may take into account besides the item.
public struct CellContext: Sendable, Equatable {
    /// Whether the item is selected.
    public var isSelected: Bool

    /// A context for an item that is (or is not) selected.
    public init(isSelected: Bool) {
        self.isSelected = isSelected
    }
}

/// Makes the cell of an item: the presentation strategy of a ``TableContainer``
/// (the seeds' `JLCellProvider`).
///
/// ```swift
/// struct UppercaseCells: CellProvider {
///     func cell(for item: TableItem, context: CellContext) -> Cell {
///         Cell(columns: [String(describing: item.value).uppercased()])
///     }
/// }
/// ```
@MainActor
public protocol CellProvider {
    /// The cell showing `item` in `context`.
    func cell(for item: TableItem, context: CellContext) -> Cell

    /// The text search as you type compares for `item`: by default its cell's columns joined
    /// by spaces. A provider that can say it without making the cell saves the first search
    /// of a long table that work for every row.
    func searchText(for item: TableItem) -> String
}

extension CellProvider {
    public func searchText(for item: TableItem) -> String {
        cell(for: item, context: CellContext(isSelected: false)).columns.joined(separator: " ")
    }
}
