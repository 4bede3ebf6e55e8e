import TrellisCore

/// Reads a model from its JSON form and checks it, naming the file, entity and member of
/// every mistake. Unknown members are refused, so a misspelt `"optinal"` is caught.
///
/// Names become SQLite identifiers, and SQLite compares identifiers ignoring ASCII case and
/// keeps tables and indexes in one namespace: so two entities, two keys of an entity, or an
/// index and a table may not differ only in case, and `sqlite_` and `trellis_` names are
/// reserved in any case. Whatever the parser accepts, SQLite accepts.
struct ModelParser {
    let file: String

    func parse(_ json: JSONValue) throws -> ManagedObjectModel {
        guard let root = json.objectValue else { throw invalid("the top level must be an object") }
        try checkMembers(root, allowed: ["version", "entities"]) { invalid("unknown member '\($0)'") }
        guard let version = root["version"]?.intValue, version >= 1 else {
            throw invalid("'version' must be a positive integer")
        }
        guard let entityList = root["entities"]?.arrayValue, !entityList.isEmpty else {
            throw invalid("'entities' must be a non-empty array")
        }
        var entities: [EntityDescription] = []
        for (position, item) in entityList.enumerated() {
            let entity = try parseEntity(item, position: position)
            if let other = entities.first(where: { Self.sameSQLName($0.name, entity.name) }) {
                let reason = other.name == entity.name ? "declared twice" : "the name clashes with entity '\(other.name)' (SQLite ignores case)"
                throw ModelError.invalidEntity(file: file, entity: entity.name, reason: reason)
            }
            entities.append(entity)
        }
        try checkRelationships(entities)
        try checkIndexNames(entities)
        return ManagedObjectModel(unchecked: version, entities: entities, source: file)
    }

    private func parseEntity(_ json: JSONValue, position: Int) throws -> EntityDescription {
        guard let object = json.objectValue, let name = object["name"]?.stringValue else {
            throw invalid("entity #\(position + 1) must be an object with a 'name'")
        }
        func fail(_ reason: String) -> ModelError { .invalidEntity(file: file, entity: name, reason: reason) }
        guard Self.isIdentifier(name) else { throw fail("the name must be an ASCII identifier") }
        guard !Self.isReserved(name) else { throw fail("names starting with sqlite_ or trellis_ are reserved") }
        try checkMembers(object, allowed: ["name", "attributes", "relationships", "indexes"]) {
            fail("unknown member '\($0)'")
        }
        guard let attributeList = object["attributes"]?.arrayValue else { throw fail("'attributes' must be an array") }
        var attributes: [AttributeDescription] = []
        for item in attributeList {
            attributes.append(try parseAttribute(item, entity: name))
        }
        var relationships: [RelationshipDescription] = []
        for item in object["relationships"]?.arrayValue ?? [] {
            relationships.append(try parseRelationship(item, entity: name))
        }
        var seen: [String: String] = [:]
        for key in attributes.map(\.name) + relationships.map(\.name) {
            guard let first = seen.updateValue(key, forKey: key.lowercased()) else { continue }
            throw fail(first == key ? "the key '\(key)' is declared twice" : "the key '\(key)' clashes with '\(first)' (SQLite ignores case)")
        }
        var indexes: [IndexDescription] = []
        for item in object["indexes"]?.arrayValue ?? [] {
            indexes.append(try parseIndex(item, entity: name, keys: Set(seen.values)))
        }
        return EntityDescription(name: name, attributes: attributes, relationships: relationships, indexes: indexes)
    }

    private func parseAttribute(_ json: JSONValue, entity: String) throws -> AttributeDescription {
        guard let object = json.objectValue, let name = object["name"]?.stringValue else {
            throw ModelError.invalidEntity(file: file, entity: entity, reason: "every attribute needs a 'name'")
        }
        func fail(_ reason: String) -> ModelError {
            .invalidAttribute(file: file, entity: entity, attribute: name, reason: reason)
        }
        try checkName(name, fail: fail)
        try checkMembers(object, allowed: ["name", "type", "optional", "default"]) { fail("unknown member '\($0)'") }
        guard let typeName = object["type"]?.stringValue else { throw fail("'type' is missing") }
        guard let type = AttributeType(rawValue: typeName) else {
            let known = AttributeType.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail("unknown type '\(typeName)' (expected one of \(known))")
        }
        let isOptional = try bool(object["optional"], default: false) { fail("'optional' must be true or false") }
        var defaultValue = AttributeValue.null
        if let json = object["default"] {
            guard let value = AttributeValue(json: json, as: type) else {
                throw fail("the default \(json.jsonString) is not a \(type.rawValue)")
            }
            // The default goes into the table's SQL as a literal, a C string, which a NUL would
            // cut short (found by ModelFuzzTests).
            if case .string(let text) = value, text.unicodeScalars.contains("\0") {
                throw fail("the default contains a NUL character (\\u0000), which a column default cannot hold")
            }
            defaultValue = value
        }
        return AttributeDescription(name: name, type: type, isOptional: isOptional, defaultValue: defaultValue)
    }

    private func parseRelationship(_ json: JSONValue, entity: String) throws -> RelationshipDescription {
        guard let object = json.objectValue, let name = object["name"]?.stringValue else {
            throw ModelError.invalidEntity(file: file, entity: entity, reason: "every relationship needs a 'name'")
        }
        func fail(_ reason: String) -> ModelError {
            .invalidRelationship(file: file, entity: entity, relationship: name, reason: reason)
        }
        try checkName(name, fail: fail)
        try checkMembers(object, allowed: ["name", "destination", "inverse", "optional", "deleteRule"]) {
            fail("unknown member '\($0)'")
        }
        guard let destination = object["destination"]?.stringValue else { throw fail("'destination' is missing") }
        let inverse = object["inverse"]?.stringValue
        if let inverse { try checkName(inverse, fail: fail) }
        let isOptional = try bool(object["optional"], default: true) { fail("'optional' must be true or false") }
        var rule = DeleteRule.nullify
        if let ruleName = object["deleteRule"]?.stringValue {
            guard let parsed = DeleteRule(rawValue: ruleName) else {
                throw fail("unknown deleteRule '\(ruleName)' (expected nullify, cascade or deny)")
            }
            rule = parsed
        }
        if rule == .nullify && !isOptional { throw fail("a required relationship cannot use the nullify delete rule") }
        return RelationshipDescription(name: name, destination: destination, inverse: inverse, isOptional: isOptional,
                                       deleteRule: rule)
    }

    private func parseIndex(_ json: JSONValue, entity: String, keys: Set<String>) throws -> IndexDescription {
        guard let object = json.objectValue, let keyList = object["keys"]?.arrayValue else {
            throw ModelError.invalidEntity(file: file, entity: entity, reason: "every index needs 'keys'")
        }
        let indexKeys = keyList.compactMap(\.stringValue)
        let name = object["name"]?.stringValue ?? ([entity] + indexKeys).joined(separator: "_")
        func fail(_ reason: String) -> ModelError {
            .invalidIndex(file: file, entity: entity, index: name, reason: reason)
        }
        try checkMembers(object, allowed: ["name", "keys", "unique"]) { fail("unknown member '\($0)'") }
        guard Self.isIdentifier(name), !Self.isReserved(name) else {
            throw fail("the name must be an ASCII identifier not starting with trellis_ or sqlite_")
        }
        guard !indexKeys.isEmpty, indexKeys.count == keyList.count else { throw fail("'keys' must be names") }
        for key in indexKeys where !keys.contains(key) {
            throw fail("'\(key)' is not an attribute or relationship of \(entity)")
        }
        let isUnique = try bool(object["unique"], default: false) { fail("'unique' must be true or false") }
        return IndexDescription(name: name, keys: indexKeys, isUnique: isUnique)
    }

    private func checkRelationships(_ entities: [EntityDescription]) throws {
        for entity in entities {
            for relationship in entity.relationships {
                func fail(_ reason: String) -> ModelError {
                    .invalidRelationship(file: file, entity: entity.name, relationship: relationship.name, reason: reason)
                }
                guard let destination = entities.first(where: { $0.name == relationship.destination }) else {
                    throw fail("unknown destination entity '\(relationship.destination)'")
                }
                guard let inverse = relationship.inverse else { continue }
                if destination.keys.contains(inverse) {
                    throw fail("the inverse '\(inverse)' clashes with a key of \(destination.name)")
                }
                let sameInverse = entities.flatMap { source in
                    source.relationships.filter { $0.destination == destination.name && $0.inverse == inverse }
                }
                if sameInverse.count > 1 {
                    throw fail("the inverse '\(inverse)' is declared twice on \(destination.name)")
                }
            }
        }
    }

    /// Index names are unique in the model and differ from every table name, ignoring case;
    /// the index made for each relationship (``SchemaSQL/relationshipIndexName(entity:relationship:)``)
    /// counts too.
    private func checkIndexNames(_ entities: [EntityDescription]) throws {
        var taken = Dictionary(entities.map { ($0.name.lowercased(), "entity '\($0.name)'") }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            for index in entity.indexes {
                if let owner = taken.updateValue("index '\(index.name)'", forKey: index.name.lowercased()) {
                    throw ModelError.invalidIndex(file: file, entity: entity.name, index: index.name,
                                                  reason: "the name is taken by \(owner) (tables and indexes share SQLite's names, ignoring case)")
                }
            }
            for relationship in entity.relationships {
                let name = SchemaSQL.relationshipIndexName(entity: entity.name, relationship: relationship.name)
                let owner = "the index of relationship '\(relationship.name)' of entity '\(entity.name)'"
                if let other = taken.updateValue(owner, forKey: name.lowercased()) {
                    throw ModelError.invalidRelationship(file: file, entity: entity.name, relationship: relationship.name,
                                                         reason: "its index \(name) clashes with \(other)")
                }
            }
        }
    }

    private func checkName(_ name: String, fail: (String) -> ModelError) throws {
        guard Self.isIdentifier(name) else { throw fail("the name must be an ASCII identifier") }
        guard !Self.sameSQLName(name, EntityDescription.idKey), !name.lowercased().hasPrefix("trellis_") else {
            throw fail("'id' and names starting with trellis_ are reserved, in any case")
        }
    }

    private func checkMembers(_ object: [String: JSONValue], allowed: Set<String>,
                              fail: (String) -> ModelError) throws
    {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) { throw fail(unknown) }
    }

    private func bool(_ json: JSONValue?, default value: Bool, fail: () -> ModelError) throws -> Bool {
        guard let json else { return value }
        guard let flag = json.boolValue else { throw fail() }
        return flag
    }

    private func invalid(_ reason: String) -> ModelError { .invalidModel(file: file, reason: reason) }

    /// Whether SQLite sees `a` and `b` as one name (it ignores ASCII case in identifiers).
    static func sameSQLName(_ a: String, _ b: String) -> Bool {
        a.lowercased() == b.lowercased()
    }

    /// Names SQLite (`sqlite_`) or the store (`trellis_`) keep for themselves, in any case.
    static func isReserved(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("sqlite_") || lowered.hasPrefix("trellis_")
    }

    /// `[A-Za-z][A-Za-z0-9_]*`: safe to quote as an SQL identifier.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
