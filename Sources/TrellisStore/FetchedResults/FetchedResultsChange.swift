import TrellisCore

/// One section of fetched results: the rows sharing a value of the section key.
public struct FetchedSection: Sendable, Equatable {
    /// The section key's value (`.null` for the single section of unsectioned results).
    public let key: AttributeValue
    /// How many rows the section has.
    public let count: Int
    /// The position of its first row among all rows.
    public let offset: Int

    /// The key as header text: text as is, other values in their JSON form, `""` for nil.
    public var title: String {
        switch key {
        case .null: return ""
        case .string(let text): return text
        default: return key.json.jsonString.trimmingCharacters(in: ["\""])
        }
    }
}

/// What changed in fetched results between two states, as a batch in the manner of a
/// table view's batch update:
///
/// - `deletedSections` and `deleted` (and `moved[].from`) are positions in the old state;
/// - `insertedSections`, `inserted`, `updated` (and `moved[].to`) in the new state;
/// - applying deletions in descending order, then insertions in ascending order, turns
///   the old state into the new one; every deleted or inserted row is listed, also those
///   of deleted and inserted sections;
/// - a moved row changed sort values and was taken out and put back elsewhere; an updated
///   row kept its place among the rows that stayed, and its content changed.
///
/// A single insertion is one element of `inserted` and nothing else. `isReload` means
/// anything may have changed (another process wrote, or too much changed at once): read
/// the results again.
public struct FetchedResultsChange: Sendable, Equatable {
    /// A row and where it is.
    public struct Row: Sendable, Equatable {
        /// The object.
        public let id: ObjectID
        /// Where it is (old or new state: see above).
        public let path: TableIndexPath
    }

    /// A row that moved, from its old position to its new one.
    public struct Move: Sendable, Equatable {
        /// The object.
        public let id: ObjectID
        /// Its position in the old state.
        public let from: TableIndexPath
        /// Its position in the new state.
        public let to: TableIndexPath
    }

    /// Anything may have changed: read everything again.
    public var isReload = false
    /// Sections gone, by old index.
    public var deletedSections: [Int] = []
    /// Sections new, by new index.
    public var insertedSections: [Int] = []
    /// Rows gone, at their old positions.
    public var deleted: [Row] = []
    /// Rows new, at their new positions.
    public var inserted: [Row] = []
    /// Rows taken out and put back elsewhere.
    public var moved: [Move] = []
    /// Rows in place whose content changed, at their new positions.
    public var updated: [Row] = []

    /// No change.
    public init() {}

    static var reload: FetchedResultsChange {
        var change = FetchedResultsChange()
        change.isReload = true
        return change
    }

    /// Nothing changed.
    public var isEmpty: Bool {
        !isReload && deletedSections.isEmpty && insertedSections.isEmpty && deleted.isEmpty && inserted.isEmpty
            && moved.isEmpty && updated.isEmpty
    }
}
