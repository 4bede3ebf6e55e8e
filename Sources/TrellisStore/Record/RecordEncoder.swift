import Foundation

/// Writes an `Encodable` record into a managed object, each key into the attribute or to-one
/// relationship (given an ``ObjectID``) of that name, through the object's tracked,
/// undoable sets; `id` is skipped (an object's identity does not change).
///
/// A `nil` optional is written as null (Swift's `encodeIfPresent` would skip it, leaving
/// the old value). A value that does not fit its attribute's type is refused at once with
/// ``ContextError/typeMismatch(object:key:expected:found:)``, rather than at save.
/// `Encoder` cannot throw from `unkeyedContainer()` or `singleValueContainer()`: a record
/// that asks for one gets a container that refuses every value.
struct RecordEncoder: Encoder {
    let object: ManagedObject
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObjectEncodingContainer<Key>(object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingContainer(object: object) }

    func singleValueContainer() -> any SingleValueEncodingContainer { RefusingContainer(object: object) }

    /// The error for a shape a record cannot have (see ``RecordDecoder/notAttributes(of:path:)``).
    static func notAttributes(_ value: Any, of object: ManagedObject, path: [any CodingKey] = []) -> EncodingError {
        .invalidValue(value, .init(codingPath: path, debugDescription:
            "a record of \(object.entityName) writes named attributes, not a list or a nested value"))
    }
}

/// The attributes of one object, by name (see ``RecordEncoder``).
private struct ObjectEncodingContainer<Key: CodingKey>: ObjectKeyedEncoding {
    let object: ManagedObject
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        guard key.stringValue != EntityDescription.idKey else { return }
        try object.setValue(.null, forKey: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let name = key.stringValue
        guard name != EntityDescription.idKey else { return }
        if let id = value as? ObjectID {
            try object.setRelated(name, to: id)
            return
        }
        guard let index = object.entity.columnIndex[name] else {
            throw ContextError.unknownKey(entity: object.entityName, key: name)
        }
        let type = object.entity.columnTypes[index]
        let attribute: AttributeValue
        do {
            attribute = try AttributeValueEncoder.attributeValue(of: value, object: object, key: name)
        } catch is EncodingError {
            // A list or a nested value: name the object, the key and both types.
            throw ContextError.typeMismatch(object: object.objectID, key: name, expected: type.rawValue,
                                            found: String(describing: T.self))
        }
        guard let conformed = attribute.conformed(to: type) else {
            throw ContextError.typeMismatch(object: object.objectID, key: name, expected: type.rawValue,
                                            found: "\(T.self) (\(attribute.kindName))")
        }
        object.setValue(conformed, at: index)
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeOptional(value, forKey: key)
    }

    // The protocol's own implementations for these types skip a nil, and they are chosen
    // over the generic one above: each is restated to write null.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}

/// One property's value as an attribute value: directly for the attribute types, else
/// through the single value the type encodes itself as (an enum's raw value).
private final class AttributeValueEncoder: Encoder, SingleValueEncodingContainer {
    let object: ManagedObject
    let key: String
    private(set) var value: AttributeValue?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(object: ManagedObject, key: String) {
        self.object = object
        self.key = key
    }

    /// `value` as an attribute value; throws when its type encodes as anything but one
    /// value of an attribute type.
    static func attributeValue<T: Encodable>(of value: T, object: ManagedObject, key: String) throws -> AttributeValue {
        if let direct = RecordValue.attributeValue(of: value) { return direct }
        // An attribute type that still has no attribute value (an integer beyond `Int`)
        // would only encode itself as itself again.
        guard !RecordValue.isDirect(T.self) else { throw RecordEncoder.notAttributes(value, of: object) }
        let encoder = AttributeValueEncoder(object: object, key: key)
        try value.encode(to: encoder)
        guard let encoded = encoder.value else { throw RecordEncoder.notAttributes(value, of: object) }
        return encoded
    }

    func container<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
        KeyedEncodingContainer(RefusingKeyedContainer<Nested>(object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingContainer(object: object) }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }

    func encode<T: Encodable>(_ value: T) throws {
        self.value = try Self.attributeValue(of: value, object: object, key: key)
    }
}

/// What a record gets when it asks for a list or a nested value: every write fails, naming
/// the entity.
private struct RefusingContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let object: ManagedObject
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func encodeNil() throws { throw RecordEncoder.notAttributes(AttributeValue.null, of: object) }

    mutating func encode<T: Encodable>(_ value: T) throws { throw RecordEncoder.notAttributes(value, of: object) }

    mutating func nestedContainer<Nested: CodingKey>(keyedBy keyType: Nested.Type) -> KeyedEncodingContainer<Nested> {
        KeyedEncodingContainer(RefusingKeyedContainer<Nested>(object: object))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }

    mutating func superEncoder() -> any Encoder { RecordEncoder(object: object) }
}

/// The keyed form of ``RefusingContainer``.
private struct RefusingKeyedContainer<Key: CodingKey>: ObjectKeyedEncoding {
    let object: ManagedObject
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        throw RecordEncoder.notAttributes(AttributeValue.null, of: object, path: [key])
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        throw RecordEncoder.notAttributes(value, of: object, path: [key])
    }
}

/// A keyed container writing into an object: a nested value is refused (an object's
/// attributes hold no attributes), a superclass writes into the same object.
private protocol ObjectKeyedEncoding: KeyedEncodingContainerProtocol {
    var object: ManagedObject { get }
}

extension ObjectKeyedEncoding {
    mutating func nestedContainer<Nested: CodingKey>(keyedBy keyType: Nested.Type, forKey key: Key)
        -> KeyedEncodingContainer<Nested>
    {
        KeyedEncodingContainer(RefusingKeyedContainer<Nested>(object: object))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingContainer(object: object)
    }

    mutating func superEncoder() -> any Encoder { RecordEncoder(object: object) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { RecordEncoder(object: object) }
}
