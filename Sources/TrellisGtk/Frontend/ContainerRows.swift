import TrellisCore

/// Presents a ``TableContainer``'s flattened rows (section headers, cells, selection) as the
/// ``ListRowSource`` a ``VirtualListView`` reads on demand.
@MainActor
final class ContainerRows: ListRowSource {
    let container: TableContainer

    init(_ container: TableContainer) { self.container = container }

    var rowCount: Int { container.flatCount }

    var tellsSelection: Bool { container.selection.mode != .none && container.selection.count > 0 }

    func listRow(at position: Int) -> ListRow {
        switch container.flatRow(at: position) {
        case .header(let title, _)?:
            return .header(title)
        case .item(_, let cell)?:
            return .item(columns: cell.columns, checkbox: cell.checkbox, selected: container.isSelected(flatIndex: position))
        case nil:
            return .item(columns: [""], checkbox: nil, selected: false)
        }
    }
}
