/// Adds a checkbox bound to the selection state to the cells of another provider
/// (the seeds' `JLSelectionProvider`).
///
/// The checkbox shows whether the item is selected; toggling it
/// (``TableContainer/toggle(flatIndex:)``) toggles the selection and calls the container's
/// selection callbacks.
///
/// ```swift
/// let favourites = TableContainer(
///     source: ArraySource(genres),
///     cells: SelectionCellProvider(wrapping: DescriptionCellProvider()),
///     selectionMode: .multiple
/// )
/// ```
public struct SelectionCellProvider: CellProvider {
    /// The provider whose cells get the checkbox.
    public let wrapped: any CellProvider

    /// Checkbox cells over the cells of `wrapped`.
    public init(wrapping wrapped: any CellProvider) {
        self.wrapped = wrapped
    }

    public func cell(for item: TableItem, context: CellContext) -> Cell {
        var cell = wrapped.cell(for: item, context: context)
        cell.checkbox = context.isSelected
        return cell
    }

    /// The wrapped provider's text (the checkbox has none).
    public func searchText(for item: TableItem) -> String {
        wrapped.searchText(for: item)
    }
}
