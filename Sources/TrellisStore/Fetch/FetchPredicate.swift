/// Which objects a fetch returns: a small predicate language compiled to SQL with `?`
/// arguments — values never become SQL text.
///
/// ```swift
/// let ivanovs: FetchPredicate = .equal("lastName", "Ivanov")
/// let search: FetchPredicate = .contains("title", "ф")          // Unicode, ignoring case
/// let recent: FetchPredicate = .greater("created", .date(weekAgo)) && !.equal("body", "")
/// let byAuthor: FetchPredicate = .references("author", person.objectID)
/// ```
///
/// Keys are checked against the model (attributes, relationships and `id`), and values
/// against the key's type, when the request is compiled. Comparisons follow SQL: a `nil`
/// value matches only ``equal(_:_:)`` with `nil` (`IS NULL`), and ``notEqual(_:_:)``
/// includes objects whose value is `nil`.
public indirect enum FetchPredicate: Sendable, Hashable {
    case equal(String, AttributeValue)
    case notEqual(String, AttributeValue)
    case less(String, AttributeValue)
    case lessOrEqual(String, AttributeValue)
    case greater(String, AttributeValue)
    case greaterOrEqual(String, AttributeValue)
    /// The key's value is one of the values.
    case oneOf(String, [AttributeValue])
    /// The text key contains the text; `caseInsensitive` folds Unicode case ("ф" finds "Фэнтези").
    case contains(String, String, caseInsensitive: Bool = true)
    /// The text key starts with the text.
    case beginsWith(String, String, caseInsensitive: Bool = true)
    /// All of them (`and([])` matches everything).
    case and([FetchPredicate])
    /// Any of them (`or([])` matches nothing).
    case or([FetchPredicate])
    case not(FetchPredicate)

    /// The to-one relationship `key` points at `id`.
    public static func references(_ key: String, _ id: ObjectID) -> FetchPredicate {
        .equal(key, .uuid(id.uuid))
    }

    /// Both predicates: `.and([lhs, rhs])`.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { .and([lhs, rhs]) }

    /// Either predicate: `.or([lhs, rhs])`.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { .or([lhs, rhs]) }

    /// The negation: `.not(operand)`.
    public static prefix func ! (operand: FetchPredicate) -> FetchPredicate { .not(operand) }
}

/// One sort criterion of a fetch. Text sorts by Unicode code point (SQLite's BINARY).
public struct SortKey: Sendable, Hashable {
    /// The attribute or relationship sorted by.
    public let key: String
    /// Ascending (nil first) or descending (nil last).
    public let ascending: Bool

    /// Sorts by `key`, ascending unless told.
    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// Sorts by `key`, smallest first.
    public static func ascending(_ key: String) -> SortKey { SortKey(key, ascending: true) }

    /// Sorts by `key`, largest first.
    public static func descending(_ key: String) -> SortKey { SortKey(key, ascending: false) }
}

/// What to fetch: an entity, a predicate, a sort order, a window.
///
/// ```swift
/// var request = FetchRequest(entityName: "Note", predicate: .contains("title", "shop"),
///                            sortKeys: [.descending("created")])
/// request.limit = 20
/// let notes = try context.fetch(request)
/// ```
///
/// Objects are always ordered completely: ties (and a request with no sort keys) are
/// broken by object id, in the direction of the last sort key. For a `Codable` struct of an
/// entity, ``RecordRequest`` is the typed form (`RecordRequest<Note>(sortKeys: …)`).
public struct FetchRequest: Sendable, Hashable {
    /// The entity fetched.
    public var entityName: String
    /// Which objects; `nil` for all.
    public var predicate: FetchPredicate?
    /// The order, before the id that breaks ties.
    public var sortKeys: [SortKey]
    /// The most objects returned; `nil` for all.
    public var limit: Int?
    /// How many matching objects to skip.
    public var offset: Int
    /// The rows read at a time: the page size of ``FetchedResultsController``.
    public var batchSize: Int

    /// A request for every object of `entityName`, unless told otherwise.
    public init(entityName: String, predicate: FetchPredicate? = nil, sortKeys: [SortKey] = [], limit: Int? = nil,
                offset: Int = 0, batchSize: Int = 50)
    {
        self.entityName = entityName
        self.predicate = predicate
        self.sortKeys = sortKeys
        self.limit = limit
        self.offset = offset
        self.batchSize = batchSize
    }
}
