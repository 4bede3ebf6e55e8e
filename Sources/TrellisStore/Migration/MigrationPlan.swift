import GRDB

/// A lightweight migration from the model a store remembers to a newer model, worked out
/// before anything is written.
///
/// Inferred changes, applied in one transaction that keeps every row:
/// - a new entity (a new table);
/// - a new attribute that is optional or has a default, a new optional relationship
///   (`ALTER TABLE ... ADD COLUMN`; existing rows get the default);
/// - a dropped attribute (`ALTER TABLE ... DROP COLUMN`);
/// - new, changed and dropped indexes;
/// - a changed default or inverse name (model only: saves always write every value).
///
/// Anything else throws ``StoreError/migrationNotInferable(path:entity:key:reason:)`` naming
/// the entity and key, before the store is touched: a removed entity or relationship, a new
/// required attribute without a default, a changed type, optionality, destination or
/// delete rule.
struct MigrationPlan {
    /// One schema change, with the SQL that makes it.
    struct Step: CustomStringConvertible {
        let description: String
        let sql: String
    }

    let path: String
    let storedVersion: Int
    let target: ManagedObjectModel
    let steps: [Step]

    /// Nothing to write: the store already has the target model.
    var isEmpty: Bool { storedVersion == target.version && steps.isEmpty }

    init(path: String, stored: StoreProbe.StoredModel, target: ManagedObjectModel) throws {
        self.path = path
        self.storedVersion = stored.version
        self.target = target
        let previous: ManagedObjectModel
        do {
            previous = try ManagedObjectModel(jsonString: stored.json, source: "\(path) (stored model)")
        } catch {
            throw StoreError.storedModelUnreadable(path: path, reason: String(describing: error))
        }
        if stored.version > target.version {
            throw StoreError.modelOlderThanStore(path: path, storeVersion: stored.version, modelVersion: target.version)
        }
        if stored.version == target.version {
            guard previous == target else {
                let change = (try? Self.steps(from: previous, to: target, path: path))?.first?.description
                throw StoreError.modelChangedWithoutNewVersion(
                    path: path, version: target.version, change: change ?? "a key changed in a way that needs rebuilding")
            }
            self.steps = []
        } else {
            self.steps = try Self.steps(from: previous, to: target, path: path)
        }
    }

    /// Applies the steps and records the new model, all in one transaction.
    func apply(to pool: DatabasePool) throws {
        guard !isEmpty else { return }
        try mappingStoreErrors(path: path, operation: "migrate to model version \(target.version)") {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    for step in steps { try db.execute(sql: step.sql) }
                    try StoreMetadata.set(StoreMetadata.modelVersion, String(target.version), in: db)
                    try StoreMetadata.set(StoreMetadata.model, target.json.jsonString, in: db)
                    return .commit
                }
            }
        }
    }

    private static func steps(from old: ManagedObjectModel, to new: ManagedObjectModel, path: String) throws -> [Step] {
        var dropIndexes: [Step] = []
        var dropColumns: [Step] = []
        var creates: [Step] = []
        var addColumns: [Step] = []
        var createIndexes: [Step] = []
        func refuse(_ entity: String, _ key: String?, _ reason: String) -> StoreError {
            .migrationNotInferable(path: path, entity: entity, key: key, reason: reason)
        }

        for entity in old.entities where new.entity(named: entity.name) == nil {
            throw refuse(entity.name, nil, "the entity was removed, which would delete its rows")
        }
        for entity in new.entities {
            guard let previous = old.entity(named: entity.name) else {
                creates.append(Step(description: "new entity \(entity.name)", sql: SchemaSQL.createTable(entity)))
                createIndexes += SchemaSQL.indexes(of: entity).map {
                    Step(description: "new index \($0.name)", sql: $0.sql)
                }
                continue
            }
            let table = SchemaSQL.quote(entity.name)
            for column in previous.columns where entity.columnIndex[column.name] == nil {
                if column.relationship != nil {
                    throw refuse(entity.name, column.name, "the relationship was removed")
                }
                dropColumns.append(Step(description: "dropped attribute \(entity.name).\(column.name)",
                                        sql: "ALTER TABLE \(table) DROP COLUMN \(SchemaSQL.quote(column.name))"))
            }
            for column in entity.columns {
                guard let index = previous.columnIndex[column.name] else {
                    if !column.isOptional && column.defaultValue.isNull {
                        throw refuse(entity.name, column.name,
                                     "a new required \(column.relationship == nil ? "attribute" : "relationship") "
                                        + "needs a default value or must be optional")
                    }
                    addColumns.append(Step(description: "new key \(entity.name).\(column.name)",
                                           sql: "ALTER TABLE \(table) ADD COLUMN \(SchemaSQL.definition(column))"))
                    continue
                }
                try checkUnchanged(previous.columns[index], column) { refuse(entity.name, column.name, $0) }
            }
            let oldIndexes = Dictionary(SchemaSQL.indexes(of: previous).map { ($0.name, $0.sql) },
                                        uniquingKeysWith: { a, _ in a })
            let newIndexes = Dictionary(SchemaSQL.indexes(of: entity).map { ($0.name, $0.sql) },
                                        uniquingKeysWith: { a, _ in a })
            for (name, sql) in oldIndexes.sorted(by: { $0.key < $1.key }) where newIndexes[name] != sql {
                dropIndexes.append(Step(description: "dropped index \(name)", sql: "DROP INDEX \(SchemaSQL.quote(name))"))
            }
            for (name, sql) in newIndexes.sorted(by: { $0.key < $1.key }) where oldIndexes[name] != sql {
                createIndexes.append(Step(description: "new index \(name)", sql: sql))
            }
        }
        return dropIndexes + dropColumns + creates + addColumns + createIndexes
    }

    private static func checkUnchanged(_ old: Column, _ new: Column, refuse: (String) -> StoreError) throws {
        if old.type != new.type || (old.relationship == nil) != (new.relationship == nil) {
            let kind = { (column: Column) in column.relationship == nil ? column.type.rawValue : "relationship" }
            throw refuse("its type changed from \(kind(old)) to \(kind(new))")
        }
        if old.isOptional != new.isOptional {
            throw refuse(new.isOptional ? "it became optional (the table would have to be rebuilt)"
                                        : "it became required (existing rows may have no value)")
        }
        if let before = old.relationship, let after = new.relationship {
            if before.destination != after.destination {
                throw refuse("its destination changed from \(before.destination) to \(after.destination)")
            }
            if before.deleteRule != after.deleteRule {
                throw refuse("its delete rule changed from \(before.deleteRule.rawValue) to \(after.deleteRule.rawValue)")
            }
        }
    }
}
