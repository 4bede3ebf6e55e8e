extension ManagedObjectContext {
    /// The saved objects matching `request`, as this context's instances. Objects deleted
    /// in the context are left out; objects changed in it keep their unsaved values;
    /// unsaved insertions are not included.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let compiled = try CompiledFetch(request, model: model)
        let tail = compiled.tail(limit: request.limit, offset: request.offset)
        let rows = try store.read("fetch \(request.entityName)") { db in
            try ObjectRow.fetch(db, compiled.entity, tail.sql, arguments: tail.arguments)
        }
        return rows.map { object(for: $0, entity: compiled.entity) }.filter { !$0.isDeleted }
    }

    /// How many saved objects match `request` (its limit and offset are ignored).
    public func count(for request: FetchRequest) throws -> Int {
        let compiled = try CompiledFetch(request, model: model)
        return try store.read("count \(request.entityName)") { db in
            let statement = try RawStatement(db, sql: compiled.countSQL)
            try statement.bind(compiled.arguments)
            defer { statement.reset() }
            return try statement.step() ? statement.int(0) : 0
        }
    }

    /// The saved objects on the to-many side of a relationship: `fetchRelated(person, "notes")`
    /// returns the notes whose `author` is `person`.
    public func fetchRelated(_ object: ManagedObject, _ key: String, sortKeys: [SortKey] = []) throws -> [ManagedObject] {
        let owner = model.incomingRelationships(to: object.entityName).first { $0.relationship.inverse == key }
        guard let (source, relationship) = owner else {
            throw ContextError.notAToManyRelationship(entity: object.entityName, key: key)
        }
        return try fetch(FetchRequest(entityName: source.name, predicate: .references(relationship.name, object.objectID),
                                      sortKeys: sortKeys))
    }
}
