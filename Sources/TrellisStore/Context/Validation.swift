import TrellisCore

/// One problem found by validation at save.
public struct ValidationIssue: Sendable, Equatable, CustomStringConvertible {
    /// The object at fault.
    public let object: ObjectID
    /// The attribute or relationship at fault, if the problem is about one.
    public let key: String?
    /// What is wrong, in words.
    public let reason: String

    /// An issue of `object`, about `key` if given.
    public init(object: ObjectID, key: String?, reason: String) {
        self.object = object
        self.key = key
        self.reason = reason
    }

    public var description: String {
        key.map { "\(object) '\($0)': \(reason)" } ?? "\(object): \(reason)"
    }
}

/// Thrown by ``ManagedObjectContext/save()`` when objects do not validate; nothing was
/// written and the context keeps its changes.
public struct SaveValidationError: Error, Equatable, CustomStringConvertible {
    /// Every problem found, object by object.
    public let issues: [ValidationIssue]

    public var description: String {
        "cannot save: \(issues.map(\.description).joined(separator: "; "))"
    }
}

/// An app rule checked at save for every inserted or updated object of an entity.
///
/// ```swift
/// try store.addValidationRule(for: "Person", key: "age") { person in
///     guard let age = person["age"].intValue, age < 0 else { return nil }
///     return "must not be negative"
/// }
/// ```
public struct ValidationRule: Sendable {
    /// The entity whose objects the rule checks.
    public let entityName: String
    /// The key the rule is about, named in its issue.
    public let key: String?
    /// Returns a reason when the object breaks the rule, `nil` when it is fine.
    public let check: @Sendable (ManagedObject) -> String?
}

/// The custom rules registered on a store, shared by all its contexts.
final class ValidationRules: Sendable {
    private let rules = LockedState<[String: [ValidationRule]]>([:])

    func add(_ rule: ValidationRule) {
        rules.withLock { $0[rule.entityName, default: []].append(rule) }
    }

    func rules(for entity: String) -> [ValidationRule] {
        rules.withLock { $0[entity] ?? [] }
    }
}

extension PersistentStore {
    /// Registers a custom validation rule for `entity`, checked at every save.
    /// Throws ``ContextError`` for an unknown entity or key.
    public func addValidationRule(for entity: String, key: String? = nil,
                                  _ check: @escaping @Sendable (ManagedObject) -> String?) throws
    {
        guard let description = model.entity(named: entity) else { throw ContextError.unknownEntity(entity) }
        if let key, description.columnIndex[key] == nil { throw ContextError.unknownKey(entity: entity, key: key) }
        validationRules.add(ValidationRule(entityName: entity, key: key, check: check))
    }

    /// The issues of one object about to be saved: unknown keys, missing required values,
    /// values of the wrong type, then custom rules.
    func validate(_ object: ManagedObject, rules: [ValidationRule]) -> [ValidationIssue] {
        var issues = object.unknownKeys.map {
            ValidationIssue(object: object.objectID, key: $0, reason: "no such attribute or relationship")
        }
        let entity = object.entity
        for index in object.values.indices {
            let value = object.values[index]
            if value.isNull {
                if !entity.columnIsOptional[index] {
                    issues.append(ValidationIssue(object: object.objectID, key: entity.columns[index].name,
                                                  reason: "a value is required"))
                }
            } else if value.conformed(to: entity.columnTypes[index]) == nil {
                let column = entity.columns[index]
                let expected = column.relationship.map { "an object id of \($0.destination)" } ?? "a \(column.type.rawValue)"
                issues.append(ValidationIssue(object: object.objectID, key: column.name,
                                              reason: "expects \(expected), got a \(value.kindName)"))
            }
        }
        for rule in rules {
            if let reason = rule.check(object) {
                issues.append(ValidationIssue(object: object.objectID, key: rule.key, reason: reason))
            }
        }
        return issues
    }
}
