/// A fetch request for records of one type: a ``FetchRequest`` whose entity is the
/// record's, and whose results are read as records.
///
/// ```swift
/// let recent = RecordRequest<NoteRecord>(predicate: .contains("title", "shop"), sortKeys: [.descending("created")])
/// let notes: [NoteRecord] = try context.fetch(recent)
/// let live = try FetchedRecords(recent, context: context)   // follows the store's saves
/// ```
///
/// The untyped ``FetchRequest`` stays for entities known only at run time; ``fetchRequest``
/// is the one this request runs as.
public struct RecordRequest<Record: ManagedRecord>: Sendable, Hashable {
    /// The request run, for `Record.entityName`.
    public private(set) var fetchRequest: FetchRequest

    /// A request for every record, unless told otherwise (see ``FetchRequest`` for each
    /// parameter).
    public init(predicate: FetchPredicate? = nil, sortKeys: [SortKey] = [], limit: Int? = nil, offset: Int = 0,
                batchSize: Int = 50)
    {
        fetchRequest = FetchRequest(entityName: Record.entityName, predicate: predicate, sortKeys: sortKeys, limit: limit,
                                    offset: offset, batchSize: batchSize)
    }

    /// Which records; `nil` for all.
    public var predicate: FetchPredicate? {
        get { fetchRequest.predicate }
        set { fetchRequest.predicate = newValue }
    }

    /// The order, before the id that breaks ties.
    public var sortKeys: [SortKey] {
        get { fetchRequest.sortKeys }
        set { fetchRequest.sortKeys = newValue }
    }

    /// The most records returned; `nil` for all.
    public var limit: Int? {
        get { fetchRequest.limit }
        set { fetchRequest.limit = newValue }
    }
}
