/// A change announced by a live ``TableSource``.
///
/// A source announces each change right after applying it, one change at a time, so an
/// observer may read the source and find it in the state that follows exactly that change.
/// Index paths refer to that state (for a deletion: the position the row had).
public enum TableChange: Sendable, Equatable {
    /// A row was inserted at the path.
    case insert(TableIndexPath)
    /// The row at the path, whose identity was `id`, was deleted.
    case delete(TableIndexPath, id: TableItemID)
    /// A row moved, keeping its identity and content; `to` is its path after the move.
    case move(from: TableIndexPath, to: TableIndexPath)
    /// The content of the row at the path changed; its identity did not.
    case update(TableIndexPath)
    /// A section was inserted at the index, with the rows it has now.
    case insertSection(Int)
    /// The section at the index was deleted, with the rows whose identities are `removedIDs`.
    case deleteSection(Int, removedIDs: [TableItemID])
    /// Anything may have changed: read the source again from scratch.
    case reload
}

/// Sections and rows by index path: the data strategy of a ``TableContainer``
/// (the seeds' `JLTableSource`).
///
/// ``ArraySource`` wraps an array or a set; a fetched source wraps a live query. A live
/// source announces its changes through ``changes``.
///
/// ```swift
/// let source = ArraySource(["Фэнтези", "Киберпанк"])
/// assert(source.numberOfRows(inSection: 0) == 2)
/// assert(source.item(at: TableIndexPath(row: 1)).value(as: String.self) == "Киберпанк")
/// ```
@MainActor
public protocol TableSource: AnyObject {
    /// How many sections there are.
    var numberOfSections: Int { get }

    /// How many rows section `section` has; `section` is in `0..<numberOfSections`.
    func numberOfRows(inSection section: Int) -> Int

    /// The item at `path`, which must be a valid path of the source as it is now.
    func item(at path: TableIndexPath) -> TableItem

    /// The title of section `section`, or `nil` for an untitled section (no header row).
    func title(forSection section: Int) -> String?

    /// Where the item with identity `id` is now, or `nil` when the source has no such item.
    func indexPath(of id: TableItemID) -> TableIndexPath?

    /// The changes the source announces, after applying each.
    var changes: TableChangeObservers { get }

    /// Calls `body` with the item of each row in `rows` of `section`, in order: what a search
    /// reads when it folds the text of every row. By default ``item(at:)`` for each; a source
    /// that holds its rows in memory walks them at once.
    func forEachItem(inSection section: Int, rows: Range<Int>, _ body: (TableItem) -> Void)
}

extension TableSource {
    public func forEachItem(inSection section: Int, rows: Range<Int>, _ body: (TableItem) -> Void) {
        for row in rows { body(item(at: TableIndexPath(section: section, row: row))) }
    }

    /// Finds `id` by reading every item in order: O(number of rows).
    public func indexPath(of id: TableItemID) -> TableIndexPath? {
        for section in 0..<numberOfSections {
            for row in 0..<numberOfRows(inSection: section) {
                let path = TableIndexPath(section: section, row: row)
                if item(at: path).id == id { return path }
            }
        }
        return nil
    }
}
