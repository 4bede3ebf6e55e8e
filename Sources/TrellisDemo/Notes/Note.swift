import Foundation
import TrellisCore
import TrellisStore

/// A note of the demo (the `Note` entity) as a value: what the editor edits, the save
/// stores and the list lists. Its `author` relationship is left out, so writing a note
/// leaves its author as it is.
struct Note: ManagedRecord, Codable, Equatable {
    static let entityName = "Note"
    /// The note's object; `nil` until inserted.
    var id: ObjectID?
    var title: String
    var body: String
    var created: Date
    var updated: Date

    /// A new note written `now`.
    init(title: String = "", body: String = "", now: Date = Date()) {
        self.title = title
        self.body = body
        created = now
        updated = now
    }

    /// The note as JSON, for a request's parameters (the deleted note an undo puts back).
    /// Dates are coded exactly (seconds as numbers), so the note comes back as it was.
    func json() throws -> JSONValue {
        try JSONValue(jsonData: JSONEncoder().encode(self), source: "a note")
    }

    /// The note ``json()`` wrote.
    init(json: JSONValue) throws {
        self = try JSONDecoder().decode(Note.self, from: json.jsonData())
    }
}
