/// A mistake in how a context, object or fetch is used: every message names the entity and
/// the key or object at fault.
public enum ContextError: Error, CustomStringConvertible, Equatable {
    case unknownEntity(String)
    case unknownKey(entity: String, key: String)
    case notARelationship(entity: String, key: String)
    /// `key` is not a to-many relationship (the inverse of a to-one) of `entity`.
    case notAToManyRelationship(entity: String, key: String)
    case wrongDestination(entity: String, key: String, expected: String, got: String)
    /// A typed read found a value of another type (or none for a non-optional type).
    case typeMismatch(object: ObjectID, key: String, expected: String, found: String)
    /// A value of `type` was compared with a key of another type in a predicate.
    case predicateTypeMismatch(entity: String, key: String, expected: AttributeType, found: String)
    /// The store holds a value that does not fit the model (written by something else).
    case invalidStoredValue(object: ObjectID, key: String)
    /// A row of `entity` has an id that is not a UUID (written by something else).
    case invalidStoredID(entity: String, id: String)
    /// The object belongs to another context (or to none).
    case foreignObject(ObjectID)
    /// The context already has an object with this id.
    case duplicateID(ObjectID)
    /// A fetch request's limit, offset or batch size is negative.
    case invalidFetchRequest(entity: String, reason: String)
    /// A record without an id was updated or deleted: it was never inserted.
    case recordNotInserted(entity: String)
    /// There is no object with this id (it was deleted, or never saved).
    case noObject(ObjectID)

    public var description: String {
        switch self {
        case .unknownEntity(let entity):
            return "unknown entity '\(entity)'"
        case .unknownKey(let entity, let key):
            return "entity '\(entity)' has no attribute or relationship '\(key)'"
        case .notARelationship(let entity, let key):
            return "'\(key)' is not a to-one relationship of entity '\(entity)'"
        case .notAToManyRelationship(let entity, let key):
            return "'\(key)' is not a to-many relationship of entity '\(entity)'"
        case .wrongDestination(let entity, let key, let expected, let got):
            return "\(entity).\(key) points at \(expected) objects, not at \(got)"
        case .typeMismatch(let object, let key, let expected, let found):
            return "\(object) '\(key)': expected \(expected), found \(found)"
        case .predicateTypeMismatch(let entity, let key, let expected, let found):
            return "predicate on \(entity).\(key): expected a value of type \(expected.rawValue), found \(found)"
        case .invalidStoredValue(let object, let key):
            return "\(object) '\(key)': the stored value does not match the model"
        case .invalidStoredID(let entity, let id):
            return "a row of \(entity) has the id '\(id)', which is not a UUID"
        case .foreignObject(let id):
            return "\(id) belongs to another context"
        case .duplicateID(let id):
            return "the context already has an object \(id)"
        case .invalidFetchRequest(let entity, let reason):
            return "fetch request for \(entity): \(reason)"
        case .recordNotInserted(let entity):
            return "a \(entity) record without an id cannot be updated or deleted: insert it first"
        case .noObject(let id):
            return "there is no object \(id) (it may have been deleted)"
        }
    }
}
