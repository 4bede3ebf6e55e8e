/// One attribute of an entity: a column of the entity's table.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, an ASCII identifier.
    public let name: String
    /// The type of its values.
    public let type: AttributeType
    /// Whether the attribute may be `nil`. Required attributes are checked at save and are
    /// `NOT NULL` in SQLite.
    public let isOptional: Bool
    /// The value a newly inserted object starts with; `.null` when the model gives none.
    public let defaultValue: AttributeValue

    /// An attribute; required and without a default unless told.
    public init(name: String, type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue = .null) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }
}

/// What happens to the objects that point at an object when it is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Their relationship is set to `nil` (SQL `ON DELETE SET NULL`).
    case nullify
    /// They are deleted too (SQL `ON DELETE CASCADE`).
    case cascade
    /// The delete fails at save with a constraint error (SQL `ON DELETE RESTRICT`).
    case deny

    var sqlAction: String {
        switch self {
        case .nullify: return "SET NULL"
        case .cascade: return "CASCADE"
        case .deny: return "RESTRICT"
        }
    }
}

/// A to-one relationship, stored as a column holding the destination object's id.
///
/// Its `inverse` is the to-many side seen from the destination: a Note's `author`
/// relationship to Person with inverse `notes` makes "Person has many Notes"
/// (``ManagedObjectContext/fetchRelated(_:_:sortKeys:)`` follows it).
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name: the key of the column holding the destination's id.
    public let name: String
    /// The entity pointed at.
    public let destination: String
    /// The name of the to-many relationship on the destination, if it has one.
    public let inverse: String?
    /// Whether the relationship may point at nothing.
    public let isOptional: Bool
    /// Applied when the destination object is deleted.
    public let deleteRule: DeleteRule

    /// A to-one relationship, optional and nullified on delete unless told.
    public init(name: String, destination: String, inverse: String? = nil, isOptional: Bool = true,
                deleteRule: DeleteRule = .nullify)
    {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isOptional = isOptional
        self.deleteRule = deleteRule
    }
}

/// An index over one or more attributes or relationships of an entity.
///
/// Non-unique indexes get the object id appended as their last column, so that a fetch
/// sorted by the indexed keys (ties broken by id) reads the index in order.
public struct IndexDescription: Sendable, Hashable {
    /// The SQLite index name; unique in the whole model.
    public let name: String
    /// The attributes and relationships indexed, in order.
    public let keys: [String]
    /// Whether two objects may not share the indexed values.
    public let isUnique: Bool

    /// An index over `keys`.
    public init(name: String, keys: [String], isUnique: Bool = false) {
        self.name = name
        self.keys = keys
        self.isUnique = isUnique
    }
}

/// A stored property of an entity as the table sees it: an attribute, or a to-one
/// relationship (a `uuid` column).
struct Column: Sendable, Hashable {
    let name: String
    let type: AttributeType
    let isOptional: Bool
    let defaultValue: AttributeValue
    let relationship: RelationshipDescription?
}

/// An entity of the model: a table whose rows are managed objects.
///
/// ```swift
/// let note = model.entity(named: "Note")!
/// assert(note.attribute(named: "title")?.type == .string)
/// ```
///
/// A class, immutable, so that every object of the entity shares one description.
/// Two descriptions are equal when they describe the same entity.
public final class EntityDescription: Sendable, Hashable {
    /// The name of the id column every entity table has (upper-case UUID text).
    public static let idKey = "id"

    /// The entity's name, also its table's.
    public let name: String
    /// Its attributes, in column order.
    public let attributes: [AttributeDescription]
    /// Its to-one relationships, stored after the attributes.
    public let relationships: [RelationshipDescription]
    /// Its indexes.
    public let indexes: [IndexDescription]

    /// Attributes then relationships, in table column order.
    let columns: [Column]
    let columnIndex: [String: Int]
    /// The columns' names, in column order.
    let columnNames: [String]
    /// The values a new object starts with, in column order.
    let defaultValues: [AttributeValue]
    /// Each column's type and optionality, for the per-value checks of the hot paths.
    let columnTypes: [AttributeType]
    let columnIsOptional: [Bool]

    /// An entity; a model checks it (see ``ManagedObjectModel/init(version:entities:source:)``).
    public init(name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
                indexes: [IndexDescription] = [])
    {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.indexes = indexes
        let columns =
            attributes.map {
                Column(name: $0.name, type: $0.type, isOptional: $0.isOptional, defaultValue: $0.defaultValue,
                       relationship: nil)
            }
            + relationships.map {
                Column(name: $0.name, type: .uuid, isOptional: $0.isOptional, defaultValue: .null, relationship: $0)
            }
        self.columns = columns
        self.columnIndex = Dictionary(columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.columnNames = columns.map(\.name)
        self.defaultValues = columns.map(\.defaultValue)
        self.columnTypes = columns.map(\.type)
        self.columnIsOptional = columns.map(\.isOptional)
    }

    /// The index of the column called `key`, if any: what every read and write of an object's
    /// value by key looks up. An entity of a few columns compares their short names, which is
    /// cheaper than hashing the key.
    func index(ofColumn key: String) -> Int? {
        columnNames.count <= 8 ? columnNames.firstIndex(of: key) : columnIndex[key]
    }

    /// The attribute called `name`, if any.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The to-one relationship called `name`, if any.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The names of every stored key: attributes then relationships.
    public var keys: [String] { columns.map(\.name) }

    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs === rhs
            || (lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
                && lhs.indexes == rhs.indexes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(attributes)
        hasher.combine(relationships)
        hasher.combine(indexes)
    }

    /// The type stored under `key` (`.uuid` for a relationship and for `id`), or `nil` for
    /// an unknown key.
    public func type(ofKey key: String) -> AttributeType? {
        if key == Self.idKey { return .uuid }
        return columnIndex[key].map { columns[$0].type }
    }
}
