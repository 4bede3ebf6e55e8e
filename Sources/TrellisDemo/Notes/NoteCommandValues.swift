import Foundation
import TrellisCore

/// `note.save`: writes a note's title and text, a new note when `id` is nil. Validated by
/// ``NoteValidation``, saved by ``SaveNoteBusiness``.
struct SaveNote: Command {
    static let name = "note.save"
    /// The note to update; nil for a new note.
    var id: UUID?
    var title: String
    var body: String
}

/// `note.delete`: deletes the note `id`, keeping what it was for the undo
/// (``DeleteNoteBusiness``).
struct DeleteNote: Command {
    static let name = "note.delete"
    var id: UUID
}

/// `note.restore`: undoes a delete, putting `deleted` back under its id `id`
/// (``RestoreNoteBusiness``).
struct RestoreNote: Command {
    static let name = "note.restore"
    var id: UUID
    /// The note as it was when deleted.
    var deleted: Note
}
