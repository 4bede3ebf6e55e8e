import Foundation

/// Reads a `Decodable` record from a managed object: each key is an attribute, a to-one
/// relationship (as an ``ObjectID``) or `id` (the object's ``ObjectID``, or its UUID).
///
/// Every key the record asks for must exist: a misspelt optional property is an error
/// (``ContextError/unknownKey(entity:key:)``), not a silent `nil`.
struct RecordDecoder: Decoder {
    let object: ManagedObject
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ObjectDecodingContainer<Key>(object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw RecordDecoder.notAttributes(of: object)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw RecordDecoder.notAttributes(of: object)
    }

    /// The error for a shape a record cannot have: a managed object is a set of named
    /// attributes, not a list or a single value (nor attributes within attributes).
    static func notAttributes(of object: ManagedObject, path: [any CodingKey] = []) -> DecodingError {
        .typeMismatch(ManagedObject.self, .init(codingPath: path, debugDescription:
            "a record of \(object.entityName) reads named attributes, not a list or a nested value"))
    }
}

/// The attributes of one object, by name (see ``RecordDecoder``).
private struct ObjectDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: ManagedObject
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        ([EntityDescription.idKey] + object.entity.keys).compactMap(Key.init(stringValue:))
    }

    /// Every key "is there", so that an optional property the entity lacks fails in
    /// `decodeNil` by name instead of reading as `nil`.
    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        try object.attributeValue(forKey: key.stringValue).isNull
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let name = key.stringValue
        if T.self == ObjectID.self {
            let id = name == EntityDescription.idKey ? object.objectID : try object.relatedID(name)
            if let id = id as? T { return id }
            throw ContextError.typeMismatch(object: object.objectID, key: name, expected: "ObjectID", found: "null")
        }
        let value = try object.attributeValue(forKey: name)
        return try AttributeValueDecoder(value: value, object: object, key: name).decodeValue(T.self)
    }

    func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<Nested>
    {
        throw RecordDecoder.notAttributes(of: object, path: [key])
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw RecordDecoder.notAttributes(of: object, path: [key])
    }

    func superDecoder() throws -> any Decoder { throw RecordDecoder.notAttributes(of: object) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw RecordDecoder.notAttributes(of: object, path: [key])
    }
}

/// One attribute's value, for a property whose type decodes itself from a single value (an
/// enum with a raw value, a wrapper around a string).
private struct AttributeValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: AttributeValue
    let object: ManagedObject
    let key: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Nested: CodingKey>(keyedBy type: Nested.Type) throws -> KeyedDecodingContainer<Nested> {
        throw RecordDecoder.notAttributes(of: object)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw RecordDecoder.notAttributes(of: object) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    /// The value as a `T`: directly for the attribute types, else through `T`'s own
    /// `init(from:)`. A value of another type, or one `T` refuses, is a
    /// ``ContextError/typeMismatch(object:key:expected:found:)``.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let typed = RecordValue.read(value, as: T.self) { return typed }
        guard !RecordValue.isDirect(T.self) else {
            throw ContextError.typeMismatch(object: object.objectID, key: key, expected: String(describing: T.self),
                                            found: value.kindName)
        }
        do {
            return try T(from: self)
        } catch is DecodingError {
            // E.g. an enum's raw value that is none of its cases: name the object and the key.
            throw ContextError.typeMismatch(object: object.objectID, key: key, expected: String(describing: T.self),
                                            found: value.description)
        }
    }
}
