import TrellisCore

/// Reads a model from its JSON form and checks it, naming the file, entity and member of
/// every mistake. Unknown members are refused, so a misspelt `"optinal"` is caught.
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
            if entities.contains(where: { $0.name == entity.name }) {
                throw ModelError.invalidEntity(file: file, entity: entity.name, reason: "declared twice")
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
        var seen: Set<String> = []
        for key in attributes.map(\.name) + relationships.map(\.name) where !seen.insert(key).inserted {
            throw fail("the key '\(key)' is declared twice")
        }
        var indexes: [IndexDescription] = []
        for item in object["indexes"]?.arrayValue ?? [] {
            indexes.append(try parseIndex(item, entity: name, keys: seen))
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
        guard Self.isIdentifier(name), !name.hasPrefix("trellis_"), !name.hasPrefix("sqlite_") else {
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

    private func checkIndexNames(_ entities: [EntityDescription]) throws {
        var seen: Set<String> = []
        for entity in entities {
            for index in entity.indexes where !seen.insert(index.name.lowercased()).inserted {
                throw ModelError.invalidIndex(file: file, entity: entity.name, index: index.name,
                                              reason: "index names must be unique in the model")
            }
        }
    }

    private func checkName(_ name: String, fail: (String) -> ModelError) throws {
        guard Self.isIdentifier(name) else { throw fail("the name must be an ASCII identifier") }
        guard name != EntityDescription.idKey, !name.hasPrefix("trellis_") else {
            throw fail("'id' and names starting with trellis_ are reserved")
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

    /// `[A-Za-z][A-Za-z0-9_]*`: safe to quote as an SQL identifier.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
