import Foundation
import TrellisCore

/// A Swift type that an attribute value converts to and from, for typed access:
/// `let title: String = try note.get("title")`, `note.set("age", 42)`.
public protocol AttributeConvertible {
    /// The value, or `nil` when `attributeValue` holds another type (or null).
    init?(attributeValue: AttributeValue)
    var attributeValue: AttributeValue { get }
}

extension String: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.stringValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .string(self) }
}

extension Int: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.intValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .integer(self) }
}

extension Double: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.doubleValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .double(self) }
}

extension Bool: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.boolValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .bool(self) }
}

extension Date: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.dateValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .date(self) }
}

extension UUID: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.uuidValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .uuid(self) }
}

extension Data: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.dataValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .data(self) }
}

extension JSONValue: AttributeConvertible {
    public init?(attributeValue: AttributeValue) { guard let v = attributeValue.jsonValue else { return nil }; self = v }
    public var attributeValue: AttributeValue { .json(self) }
}

/// An optional reads `nil` from a null value and writes `nil` as null.
extension Optional: AttributeConvertible where Wrapped: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        if attributeValue.isNull {
            self = .none
        } else if let wrapped = Wrapped(attributeValue: attributeValue) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }

    public var attributeValue: AttributeValue { map(\.attributeValue) ?? .null }
}

extension ManagedObject {
    /// The value of `key` as `T`; throws ``ContextError/typeMismatch(object:key:expected:found:)``
    /// when it holds another type, or null for a non-optional `T`.
    public func get<T: AttributeConvertible>(_ key: String, as type: T.Type = T.self) throws -> T {
        let value = try attributeValue(forKey: key)
        guard let typed = T(attributeValue: value) else {
            throw ContextError.typeMismatch(object: objectID, key: key, expected: String(describing: T.self),
                                            found: value.kindName)
        }
        return typed
    }

    /// Sets `key` from a Swift value (tracked and undoable like the subscript).
    public func set<T: AttributeConvertible>(_ key: String, _ value: T) {
        self[key] = value.attributeValue
    }
}
