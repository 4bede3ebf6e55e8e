import Foundation
import TrellisCore
import TrellisStore

/// After a delete: what ``NoteSaved`` does (back to the notes), then the notice
/// "Deleted “Title” · Undo", whose undo (the button, or Ctrl+Z on the notes list) sends
/// `note.restore` with what ``DeleteNote`` kept of the note (VCO, main actor).
@MainActor
struct NoteDeleted: ViewControlObject {
    weak var shell: Shell?

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        _ = try await NoteSaved(shell: shell).handle(&request)
        guard let shell, let id = request.parameters["id"], let deleted = request.parameters["deleted"] else { return .continue }
        let title = deleted["title"]?.stringValue ?? ""
        shell.notify(tr("Deleted “%@”", title)) { [weak shell] in
            guard let shell else { return }
            _ = shell.controller.submit(NoteCommands.restore, parameters: ["id": id, "deleted": deleted],
                                        from: shell.navigator.top?.id)
        }
        return .continue
    }
}

/// Puts a deleted note back with its id and every attribute it had, so that links to it and
/// its sync record still find it (BCO).
struct RestoreNote: ControlObject {
    let context: BackgroundContext

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        guard let id = request.parameters["id"]?.stringValue, let uuid = UUID(uuidString: id),
              let deleted = request.parameters["deleted"] else {
            throw NoteError.missing(request.parameters["id"]?.stringValue ?? "")
        }
        var note = try Note(json: deleted)
        note.id = Note.objectID(uuid)
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
