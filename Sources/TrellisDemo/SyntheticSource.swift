import TrellisCore

/// `count` rows "row 0", "row 1", … computed on demand (`trellis --rows N`): nothing is stored
/// per row, so a million rows cost nothing until they are shown.
@MainActor
public final class SyntheticSource: TableSource {
    public let count: Int
    public let changes = TableChangeObservers()

    public init(count: Int) { self.count = max(0, count) }

    public var numberOfSections: Int { 1 }
    public func numberOfRows(inSection section: Int) -> Int { count }
    public func item(at path: TableIndexPath) -> TableItem { TableItem(id: TableItemID(path.row), value: "row \(path.row)") }
    public func title(forSection section: Int) -> String? { nil }

    public func indexPath(of id: TableItemID) -> TableIndexPath? {
        guard let row = id.intValue, (0..<count).contains(row) else { return nil }
        return TableIndexPath(row: row)
    }
}
