import Foundation
import TrellisCore
import TrellisStore

/// After a delete: what ``NoteSaved`` does (back to the notes), then the notice
/// "Deleted “Title” · Undo", whose undo (the button, or Ctrl+Z on the notes list) sends
/// ``RestoreNote`` with what ``DeleteNoteBusiness`` kept of the note (VCO, main actor).
@MainActor
struct NoteDeleted: ViewControlObject {
    weak var shell: Shell?

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        _ = try await NoteSaved(shell: shell).handle(&request)
        guard let shell, let deleted = request.parameters["deleted"] else { return .continue }
        let restore = RestoreNote(id: try request.command(as: DeleteNote.self).id, deleted: try Note(json: deleted))
        shell.notify(tr("Deleted “%@”", restore.deleted.title)) { [weak shell] in
            guard let shell else { return }
            _ = shell.controller.submit(restore, from: shell.navigator.top?.id)
        }
        return .continue
    }
}

/// Puts a deleted note back with its id and every attribute it had, so that links to it and
/// its sync record still find it (BCO).
struct RestoreNoteBusiness: ControlObject {
    let context: BackgroundContext

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        let restore = try request.command(as: RestoreNote.self)
        var note = restore.deleted
        note.id = Note.objectID(restore.id)
        try await context.perform { [note] context in
            do {
                try context.insert(note)
                try context.save()
            } catch {
                context.rollback()
                throw error
            }
        }
        return .continue
    }
}
