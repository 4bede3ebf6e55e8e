import TrellisCore

/// A live fetch read as records: a typed view over a ``FetchedResultsController``, which
/// does the fetching and follows the store's saves.
///
/// ```swift
/// let notes = try FetchedRecords(RecordRequest<NoteRecord>(sortKeys: [.descending("created")]), context: context)
/// let newest = try notes.record(at: TableIndexPath(row: 0))
/// notes.onChange = { change in /* a save changed the results */ }
/// let list = TableContainer.list(FetchedSource(notes.results))   // the same results, as a table
/// ```
@MainActor
public final class FetchedRecords<Record: ManagedRecord> {
    /// The untyped live fetch the records are read from.
    public let results: FetchedResultsController

    /// Fetches at once and follows the store's saves from then on (see
    /// ``FetchedResultsController/init(request:sectionKey:context:)``).
    public init(_ request: RecordRequest<Record>, sectionKey: String? = nil, context: ManagedObjectContext) throws {
        results = try FetchedResultsController(request: request.fetchRequest, sectionKey: sectionKey, context: context)
    }

    /// How many records there are in all sections.
    public var count: Int { results.count }

    /// The sections; one untitled section when there is no section key.
    public var sections: [FetchedSection] { results.sections }

    /// Called on the main actor after the results changed, in the new state.
    public var onChange: ((FetchedResultsChange) -> Void)? {
        get { results.onChange }
        set { results.onChange = newValue }
    }

    /// The record at `path` (a valid path of the current state).
    public func record(at path: TableIndexPath) throws -> Record {
        try Record(from: results.object(at: path))
    }

    /// Every record, in order (reads every page: for short results).
    public func records() throws -> [Record] {
        try (0..<count).map { try Record(from: results.object(atOffset: $0)) }
    }

    /// Where the record's object is now, or `nil` when it is not in the results (or has no id).
    public func indexPath(of record: Record) throws -> TableIndexPath? {
        guard let id = record.id else { return nil }
        return try results.indexPath(for: id)
    }
}

extension FetchedSource {
    /// A table source over a new live fetch of records (its items' values are the
    /// ``ManagedObject``s, read as records with ``TrellisCore/TableItem/record(as:)``).
    public convenience init<Record: ManagedRecord>(request: RecordRequest<Record>, sectionKey: String? = nil,
                                                   context: ManagedObjectContext) throws
    {
        try self.init(request: request.fetchRequest, sectionKey: sectionKey, context: context)
    }
}
