/// A fetch request checked against the model and turned into SQL with `?` arguments.
struct CompiledFetch: Sendable {
    /// One column of the complete order, the id last.
    struct OrderColumn: Sendable {
        let name: String
        let type: AttributeType
        let ascending: Bool
        /// The value's position in an ``ObjectRow``: `-1` for the id, else the column index.
        let rowIndex: Int
    }

    let entity: EntityDescription
    /// The WHERE condition, `1` when there is no predicate.
    let condition: String
    let arguments: [AttributeValue]
    let order: [OrderColumn]

    init(_ request: FetchRequest, model: ManagedObjectModel) throws {
        guard let entity = model.entity(named: request.entityName) else {
            throw ContextError.unknownEntity(request.entityName)
        }
        if request.offset < 0 || (request.limit ?? 0) < 0 || request.batchSize < 1 {
            throw ContextError.invalidFetchRequest(entity: entity.name,
                                                   reason: "limit and offset must not be negative, batchSize must be positive")
        }
        self.entity = entity
        var arguments: [AttributeValue] = []
        condition = try request.predicate.map { try PredicateSQL(entity: entity).compile($0, into: &arguments) } ?? "1"
        self.arguments = arguments
        var order: [OrderColumn] = []
        for sortKey in request.sortKeys where sortKey.key != EntityDescription.idKey {
            guard let index = entity.columnIndex[sortKey.key] else {
                throw ContextError.unknownKey(entity: entity.name, key: sortKey.key)
            }
            order.append(OrderColumn(name: sortKey.key, type: entity.columns[index].type, ascending: sortKey.ascending,
                                     rowIndex: index))
        }
        let idAscending = request.sortKeys.last?.ascending ?? true
        order.append(OrderColumn(name: EntityDescription.idKey, type: .uuid, ascending: idAscending, rowIndex: -1))
        self.order = order
    }

    var orderBy: String {
        order.map { "\(SchemaSQL.quote($0.name)) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
    }

    /// `WHERE ... ORDER BY ... [LIMIT ? OFFSET ?]` with its arguments.
    func tail(limit: Int?, offset: Int) -> (sql: String, arguments: [AttributeValue]) {
        var sql = "WHERE \(condition) ORDER BY \(orderBy)"
        var arguments = self.arguments
        if limit != nil || offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [.integer(limit ?? -1), .integer(offset)]
        }
        return (sql, arguments)
    }

    /// `SELECT count(*) ... WHERE ...`, to be bound with ``arguments``.
    var countSQL: String { "SELECT count(*) FROM \(SchemaSQL.quote(entity.name)) WHERE \(condition)" }

    /// `SELECT count(*) ... WHERE (...) AND extra`, to be bound with ``arguments`` then
    /// the extra condition's arguments.
    func countSQL(and extra: String) -> String {
        "SELECT count(*) FROM \(SchemaSQL.quote(entity.name)) WHERE (\(condition)) AND \(extra)"
    }

    /// The sort values of a row, in ``order``.
    func sortValues(of row: ObjectRow) -> [AttributeValue] {
        order.map { $0.rowIndex < 0 ? .uuid(row.id.uuid) : row.values[$0.rowIndex] }
    }
}
