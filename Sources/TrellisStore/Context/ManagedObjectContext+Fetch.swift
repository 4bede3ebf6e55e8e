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

    /// The value of `key` of each saved object matching `request`, in its order, read without
    /// making the objects: for a question about many objects that needs one attribute of
    /// each (as Core Data's `propertiesToFetch`). As with ``fetch(_:)``, objects deleted in
    /// this context are left out, objects changed in it give their unsaved value, and unsaved
    /// insertions are not included. Throws ``ContextError/unknownKey(entity:key:)`` for a key
    /// the entity does not have.
    ///
    /// ```swift
    /// let newestFirst = FetchRequest(entityName: "Note", sortKeys: [.descending("created")])
    /// let dates = try context.fetchValues(of: "created", newestFirst)   // [.date(…), …]
    /// ```
    public func fetchValues(of key: String, _ request: FetchRequest) throws -> [AttributeValue] {
        let compiled = try CompiledFetch(request, model: model)
        guard let column = compiled.entity.index(ofColumn: key) else {
            throw ContextError.unknownKey(entity: request.entityName, key: key)
        }
        let tail = compiled.tail(limit: request.limit, offset: request.offset)
        let rows = try store.read("fetch \(key) of \(request.entityName)") { db in
            try ObjectRow.fetch(db, compiled.entity, column: column, tail.sql, arguments: tail.arguments)
        }
        return rows.compactMap { id, value in
            guard let object = registeredObject(id), object.state != .detached else { return value }
            if object.isDeleted { return nil }
            return object.isUpdated ? object.values[column] : value
        }
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
