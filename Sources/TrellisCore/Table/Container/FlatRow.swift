/// One row of a container's flattened model: a section header or an item.
public enum FlatRow: Sendable, Equatable {
    /// The header of section `section`, titled `title`.
    case header(title: String, section: Int)
    /// The item at `indexPath` of the source, shown as `cell`.
    case item(indexPath: TableIndexPath, cell: Cell)
}

/// A change of the flattened model, exactly as `GListModel::items-changed`: at `position`,
/// `removed` rows were replaced by `added` rows.
public struct FlatChange: Sendable, Equatable, CustomStringConvertible {
    /// The first flat index that changed.
    public var position: Int
    /// How many rows were removed there.
    public var removed: Int
    /// How many rows were added there.
    public var added: Int

    /// A change of `removed` rows to `added` rows at `position`.
    public init(position: Int, removed: Int, added: Int) {
        self.position = position
        self.removed = removed
        self.added = added
    }

    /// `(position, removed, added)`.
    public var description: String { "(\(position), \(removed), \(added))" }
}

/// Why a container refused a user action on a row.
public enum TableContainerError: Error, CustomStringConvertible, Equatable {
    /// `index` is not a flat index: the container shows `count` rows.
    case rowOutOfRange(index: Int, count: Int)
    /// The row at `index` is the header of section `title`, not an item.
    case headerRow(index: Int, title: String)
    /// The container's selection mode is `.none`, so the row at `index` cannot be selected.
    case selectionDisabled(index: Int)

    public var description: String {
        switch self {
        case .rowOutOfRange(let index, let count):
            return "row \(index) is out of range: the table shows \(count) row(s)"
        case .headerRow(let index, let title):
            return "row \(index) is the header of section \"\(title)\", not an item"
        case .selectionDisabled(let index):
            return "row \(index) cannot be selected: the table has no selection"
        }
    }
}
