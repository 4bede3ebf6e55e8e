/// One row as a GTK list view shows it: a section header or an item.
enum ListRow: Equatable, Sendable {
    case header(String)
    /// `columns[0]` is the title, further columns are shown dimmed after it; `checkbox` is
    /// `nil` for rows without one.
    case item(columns: [String], checkbox: Bool?, selected: Bool)

    /// The text a person reads on the row (columns joined by " · ").
    var text: String {
        switch self {
        case .header(let title): return title
        case .item(let columns, _, _): return columns.joined(separator: " · ")
        }
    }
}

/// The rows behind a ``VirtualListView``, asked for on demand: GTK never holds a copy.
///
/// `rowCount` and `listRow(at:)` are called from GTK's `get_n_items` / `get_item`, so they
/// must be cheap (O(1) or O(log n)) and must not change the data.
@MainActor
protocol ListRowSource: AnyObject {
    var rowCount: Int { get }
    func listRow(at position: Int) -> ListRow
    /// Whether a screen reader is told which rows are selected and which are not (see
    /// ``SelectedRow``): while the table can select and has a row selected.
    var tellsSelection: Bool { get }
}

extension ListRowSource {
    var tellsSelection: Bool { false }
}

/// A fixed list of strings, or `count` synthetic rows "row 0", "row 1", … computed on demand.
@MainActor
final class StaticRows: ListRowSource {
    private enum Storage { case strings([String]); case synthetic(Int) }
    private let storage: Storage

    init(_ strings: [String]) { storage = .strings(strings) }

    /// `count` rows named "row 0" … "row count-1", none of them stored.
    init(synthetic count: Int) { storage = .synthetic(max(0, count)) }

    var rowCount: Int {
        switch storage {
        case .strings(let s): return s.count
        case .synthetic(let n): return n
        }
    }

    func listRow(at position: Int) -> ListRow {
        switch storage {
        case .strings(let s): return .item(columns: [s[position]], checkbox: nil, selected: false)
        case .synthetic: return .item(columns: ["row \(position)"], checkbox: nil, selected: false)
        }
    }
}
