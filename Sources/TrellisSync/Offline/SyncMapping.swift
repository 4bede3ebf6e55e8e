import Foundation
import TrellisCore
import TrellisStore

/// Which store entity an ``EntitySync`` keeps in step with which server collection, and
/// which of its attributes travel.
///
/// ```swift
/// let people = SyncMapping(entityName: "Person", collectionPath: "people",
///                          keys: ["firstName", "lastName", "age"])
/// ```
///
/// Attributes travel as JSON with the store's conversions (`AttributeValue.json`, TrellisStore): dates
/// as ISO 8601 text, UUIDs as text, data as base64. Relationships do not travel.
public struct SyncMapping: Sendable {
    /// The entity whose objects are synced.
    public var entityName: String
    /// The collection's path under the server URL (`notes` → `<server>/notes`).
    public var collectionPath: String
    /// The attributes sent to and read from the server.
    public var keys: [String]
    /// The member that carries a resource's client id, the local object's id given at its
    /// creation, by which a create whose answer was lost is looked up (`clientId`).
    public var clientIDKey: String
    /// Makes the values of a conflict copy from the values of the rejected local edit
    /// (every attribute of the entity); by default they are kept as they are.
    public var conflictCopy: @Sendable ([String: AttributeValue]) -> [String: AttributeValue]

    /// A mapping of `entityName`'s `keys` to `<server>/<collectionPath>`.
    public init(entityName: String, collectionPath: String, keys: [String], clientIDKey: String = "clientId",
                conflictCopy: @escaping @Sendable ([String: AttributeValue]) -> [String: AttributeValue] = { $0 })
    {
        self.entityName = entityName
        self.collectionPath = collectionPath
        self.keys = keys
        self.clientIDKey = clientIDKey
        self.conflictCopy = conflictCopy
    }

    /// The demo's notes: `title`, `body`, `created` and `updated` at `<server>/notes`; a
    /// conflict copy's title gets " (conflict copy)" appended.
    public static let notes = SyncMapping(entityName: "Note", collectionPath: "notes",
                                          keys: ["title", "body", "created", "updated"]) { values in
        var copy = values
        copy["title"] = .string((values["title"]?.stringValue ?? "") + " (conflict copy)")
        return copy
    }

    /// The synced attributes of `object` as JSON.
    func attributes(of object: ManagedObject) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, Self.wireJSON(object[$0])) })
    }

    /// A value as it travels: the store's JSON form, except that dates are written to the
    /// nearest millisecond (`2026-01-02T03:04:05.678Z`), so that reading and writing a date
    /// again gives the same text and repeated round trips never drift.
    static func wireJSON(_ value: AttributeValue) -> JSONValue {
        guard case .date(let date) = value else { return value.json }
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let whole = Date.ISO8601FormatStyle().format(Date(timeIntervalSince1970: seconds))
        let fraction = Int(milliseconds - seconds * 1000)
        return .string(String(whole.dropLast()) + "." + String(format: "%03d", fraction) + "Z")
    }

    /// Store values of the synced attributes in their wire form.
    func attributes(of values: [String: AttributeValue]) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, Self.wireJSON(values[$0] ?? .null)) })
    }

    /// A server resource's synced attributes in their wire form, comparable with
    /// ``attributes(of:)`` and with a record's base; `nil` when they do not fit the entity.
    func wireAttributes(from attributes: [String: JSONValue], entity: EntityDescription) -> [String: JSONValue]? {
        values(from: attributes, entity: entity).map { self.attributes(of: $0) }
    }

    /// The synced keys a resource's attributes lack (a summary list leaves some out), or
    /// `nil` when it has them all. A member present as `null` is not missing.
    func missingKeys(in attributes: [String: JSONValue]) -> [String]? {
        let missing = keys.filter { attributes[$0] == nil }
        return missing.isEmpty ? nil : missing
    }

    /// One member of a resource in its wire form (comparable with a base's), or `nil` when it
    /// does not fit its attribute.
    func wireValue(_ json: JSONValue, key: String, entity: EntityDescription) -> JSONValue? {
        guard let attribute = entity.attribute(named: key) else { return nil }
        if json.isNull { return attribute.isOptional ? .null : Self.wireJSON(attribute.defaultValue) }
        return AttributeValue(json: json, as: attribute.type).map(Self.wireJSON)
    }

    /// The store values for a server resource's attributes, or `nil` when one of them has
    /// the wrong type or a required one is missing. A missing optional key reads as `nil`,
    /// a missing key with a default as the default.
    func values(from attributes: [String: JSONValue], entity: EntityDescription) -> [String: AttributeValue]? {
        var values: [String: AttributeValue] = [:]
        for key in keys {
            guard let attribute = entity.attribute(named: key) else { return nil }
            if let json = attributes[key], !json.isNull {
                guard let value = AttributeValue(json: json, as: attribute.type) else { return nil }
                values[key] = value
            } else if attribute.isOptional {
                values[key] = .null
            } else if !attribute.defaultValue.isNull {
                values[key] = attribute.defaultValue
            } else {
                return nil
            }
        }
        return values
    }
}
