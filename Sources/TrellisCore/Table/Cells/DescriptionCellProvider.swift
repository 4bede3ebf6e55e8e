/// Shows an item as one column with its description: `String(describing:)`, so a
/// `CustomStringConvertible` value's `description` (the seeds' `JLDescriptionProvider`).
///
/// ```swift
/// let container = TableContainer(source: ArraySource(genres), cells: DescriptionCellProvider())
/// ```
public struct DescriptionCellProvider: CellProvider {
    /// A provider of one-column description cells.
    public init() {}

    public func cell(for item: TableItem, context: CellContext) -> Cell {
        Cell(columns: [searchText(for: item)])
    }

    /// The description, the one column.
    public func searchText(for item: TableItem) -> String {
        // A string is its own description; the cast is cheaper than `String(describing:)`.
        item.value as? String ?? String(describing: item.value)
    }
}
