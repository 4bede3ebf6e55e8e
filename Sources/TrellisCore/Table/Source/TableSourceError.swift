/// Why a table source refused a change.
public enum TableSourceError: Error, CustomStringConvertible, Equatable {
    /// `section` is not one of the source's `sectionCount` sections.
    case sectionOutOfRange(section: Int, sectionCount: Int)
    /// `path` names no row: its section has `rowCount` rows (one more is allowed for an insertion).
    case rowOutOfRange(TableIndexPath, rowCount: Int)
    /// An element whose section key is `elementKey` cannot go to `path`, whose section's key is `sectionKey`.
    case sectionMismatch(TableIndexPath, elementKey: String, sectionKey: String)

    public var description: String {
        switch self {
        case .sectionOutOfRange(let section, let count):
            return "section \(section) is out of range: the source has \(count) section(s)"
        case .rowOutOfRange(let path, let count):
            return "row \(path.row) of section \(path.section) is out of range: the section has \(count) row(s)"
        case .sectionMismatch(let path, let elementKey, let sectionKey):
            return "an element of section \"\(elementKey)\" cannot go to \(path) in section \"\(sectionKey)\""
        }
    }
}
