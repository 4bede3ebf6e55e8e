import Foundation
import TrellisCore

/// The managed object model (Core Data's MOM): the schema of the store, read from a
/// JSON file such as `data/model.json`.
///
/// ```json
/// { "version": 1,
///   "entities": [
///     { "name": "Person",
///       "attributes": [ { "name": "firstName", "type": "string" },
///                       { "name": "age", "type": "integer", "optional": true } ],
///       "indexes": [ { "name": "Person_byName", "keys": ["lastName", "firstName"] } ] },
///     { "name": "Note",
///       "attributes": [ { "name": "title", "type": "string" },
///                       { "name": "body", "type": "string", "default": "" } ],
///       "relationships": [ { "name": "author", "destination": "Person", "inverse": "notes",
///                            "optional": true, "deleteRule": "nullify" } ] } ] }
/// ```
///
/// ```swift
/// let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: "data/model.json"))
/// let version = model.version                // the file's "version"
/// let keys = model.entity(named: "Note")?.keys  // ["title", "body", "created", "updated", "author"]
/// ```
///
/// Attribute types are those of ``AttributeType``. Names are ASCII identifiers; `id` and
/// names starting with `trellis_` (or, for entities and indexes, `sqlite_`) are reserved.
/// As in SQLite, names are compared ignoring case: two entities, two keys of one entity, or
/// an index and an entity may not differ only in case. The version is a positive integer that
/// must grow whenever the entities change (see ``PersistentStore`` for migration).
public struct ManagedObjectModel: Sendable, Hashable {
    /// The model version; it grows with every change of the entities.
    public let version: Int
    /// The entities, in file order.
    public let entities: [EntityDescription]
    /// Where the model was read from, for messages.
    public let source: String

    private let entityIndex: [String: Int]

    /// Builds a model in code. Prefer a model file: it is what the store remembers.
    /// Throws like the file parser for inconsistent entities.
    public init(version: Int, entities: [EntityDescription], source: String = "model") throws {
        let model = ManagedObjectModel(unchecked: version, entities: entities, source: source)
        self = try ModelParser(file: source).parse(model.json)
    }

    init(unchecked version: Int, entities: [EntityDescription], source: String) {
        self.version = version
        self.entities = entities
        self.source = source
        self.entityIndex = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Reads and validates a model file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError.unreadable(file: url.path, reason: error.localizedDescription)
        }
        try self.init(jsonData: data, source: url.path)
    }

    /// Reads and validates a model from JSON text; `source` names it in errors.
    public init(jsonData data: Data, source: String) throws {
        let json: JSONValue
        do {
            json = try JSONValue(jsonData: data, source: source)
        } catch {
            throw ModelError.invalidModel(file: source, reason: "not JSON: \(error)")
        }
        self = try ModelParser(file: source).parse(json)
    }

    /// Reads and validates a model from JSON text given as a string.
    public init(jsonString: String, source: String) throws {
        try self.init(jsonData: Data(jsonString.utf8), source: source)
    }

    /// The entity called `name`, if any.
    public func entity(named name: String) -> EntityDescription? {
        entityIndex[name].map { entities[$0] }
    }

    /// The entities that have a to-one relationship pointing at `entity`, with that
    /// relationship.
    func incomingRelationships(to entity: String) -> [(source: EntityDescription, relationship: RelationshipDescription)] {
        entities.flatMap { source in
            source.relationships.filter { $0.destination == entity }.map { (source, $0) }
        }
    }

    /// The canonical JSON form of the model; stored in the database and compared on open.
    public var json: JSONValue {
        .object([
            "version": .number(Double(version)),
            "entities": .array(entities.map(\.json)),
        ])
    }

    public static func == (lhs: ManagedObjectModel, rhs: ManagedObjectModel) -> Bool {
        lhs.version == rhs.version && lhs.entities == rhs.entities
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities)
    }
}

extension EntityDescription {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name),
            "attributes": .array(attributes.map(\.json)),
        ]
        if !relationships.isEmpty { object["relationships"] = .array(relationships.map(\.json)) }
        if !indexes.isEmpty { object["indexes"] = .array(indexes.map(\.json)) }
        return .object(object)
    }
}

extension AttributeDescription {
    var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "type": .string(type.rawValue)]
        if isOptional { object["optional"] = true }
        if !defaultValue.isNull { object["default"] = defaultValue.json }
        return .object(object)
    }
}

extension RelationshipDescription {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name), "destination": .string(destination),
            "optional": .bool(isOptional), "deleteRule": .string(deleteRule.rawValue),
        ]
        if let inverse { object["inverse"] = .string(inverse) }
        return .object(object)
    }
}

extension IndexDescription {
    var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "keys": .array(keys.map { .string($0) })]
        if isUnique { object["unique"] = true }
        return .object(object)
    }
}
