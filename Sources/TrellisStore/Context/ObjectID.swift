import Foundation

/// The identity of a managed object: its entity and a UUID given at insertion.
///
/// Stable from `insert` on (there are no temporary ids), the same in every context and
/// across launches, and `Sendable`, so it is what crosses threads and goes into routes
/// and events. Its text form is `Entity/UUID`:
///
/// ```swift
/// let id = note.objectID
/// let text = id.description            // "Note/1B4E28BA-2FA1-11D2-883F-0016D3CCA427"
/// assert(ObjectID(text) == id)
/// ```
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The object's entity.
    public let entityName: String
    /// The object's UUID, unique in the store.
    public let uuid: UUID

    /// The id of the object of `entityName` with `uuid` (a new UUID by default).
    public init(entityName: String, uuid: UUID = UUID()) {
        self.entityName = entityName
        self.uuid = uuid
    }

    /// Parses `Entity/UUID`; `nil` for any other text.
    public init?(_ text: String) {
        guard let slash = text.firstIndex(of: "/"), let uuid = UUID(uuidString: String(text[text.index(after: slash)...]))
        else { return nil }
        self.init(entityName: String(text[..<slash]), uuid: uuid)
    }

    public var description: String { "\(entityName)/\(uuid.uuidString)" }

    /// Only the UUID is hashed: it is unique on its own, and hashing it is cheap.
    public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }

    /// Orders by entity, then by UUID text.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entityName, lhs.uuid.uuidString) < (rhs.entityName, rhs.uuid.uuidString)
    }
}

/// An id is coded as its text form, `Entity/UUID` (a record's `id` in JSON, say).
extension ObjectID: Codable {
    /// Reads the text form; a text that is not `Entity/UUID` is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ObjectID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an object id (Entity/UUID)")
        }
        self = id
    }

    /// Writes the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
