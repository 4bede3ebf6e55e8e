import Foundation
import TrellisCore
import TrellisStore

/// The notes flow through the front controller (QuickConnect's control stacks):
///
/// | command | validation | business | view | error command |
/// | --- | --- | --- | --- | --- |
/// | ``SaveNote`` `note.save` | ``NoteValidation`` | ``SaveNoteBusiness`` | ``NoteSaved`` | `note.invalid` → ``ShowNoteProblem`` |
/// | ``DeleteNote`` `note.delete` | | ``DeleteNoteBusiness`` | ``NoteDeleted`` | `default` → ``ShowNoteProblem`` |
/// | ``RestoreNote`` `note.restore` | | ``RestoreNoteBusiness`` | | `default` → ``ShowNoteProblem`` |
///
/// The commands are typed (``SaveNote`` and the others); their objects read them with
/// `request.command(as:)`, so a request by name with other parameters reaches
/// ``ShowNoteProblem`` with the parameter at fault. Validation and business run off the main
/// thread; saving goes through a background context, and the notes list follows through its
/// fetched results.
enum NoteCommands {
    static let invalid = "note.invalid"
    /// The longest title accepted, in characters.
    static let maximumTitleLength = 200
    /// The longest text accepted, in bytes of UTF-8 (1 MiB): a long chapter fits, while a
    /// pasted 10 MB log is refused before it reaches the store and the list, whose rows show
    /// the text.
    static let maximumBodyBytes = 1024 * 1024

    @MainActor
    static func map(on shell: Shell, store: PersistentStore) {
        let background = store.newBackgroundContext(label: "trellis.demo.notes")
        let controller = shell.controller
        controller.mapValidation(SaveNote.name) { NoteValidation() }
        controller.mapBusiness(SaveNote.name) { SaveNoteBusiness(context: background) }
        controller.mapView(SaveNote.name) { [weak shell] in NoteSaved(shell: shell) }
        controller.mapError(invalid) { [weak shell] in ShowNoteProblem(shell: shell) }
        controller.mapBusiness(DeleteNote.name) { DeleteNoteBusiness(context: background) }
        controller.mapView(DeleteNote.name) { [weak shell] in NoteDeleted(shell: shell) }
        controller.mapBusiness(RestoreNote.name) { RestoreNoteBusiness(context: background) }
        controller.mapError("default") { [weak shell] in ShowNoteProblem(shell: shell) }
    }
}

/// Rejects a note without a title, with a title over 200 characters, or with a text over
/// 1 MiB, naming the field at fault in `field` (ValCO).
struct NoteValidation: ControlObject {
    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        let note = try request.command(as: SaveNote.self)
        let title = note.title.trimmingCharacters(in: .whitespacesAndNewlines)
        request.parameters["field"] = "title"  // the field at fault, for the message
        if title.isEmpty {
            return .dispatchToError(command: NoteCommands.invalid, reason: tr("A note needs a title."))
        }
        if title.count > NoteCommands.maximumTitleLength {
            return .dispatchToError(command: NoteCommands.invalid,
                                    reason: tr("A title may have at most %@ characters; this one has %@.",
                                               String(NoteCommands.maximumTitleLength), String(title.count)))
        }
        let bodyBytes = note.body.utf8.count
        request.parameters["field"] = "body"
        if bodyBytes > NoteCommands.maximumBodyBytes {
            return .dispatchToError(command: NoteCommands.invalid,
                                    reason: tr("A note's text may have at most %@ bytes; this one has %@.",
                                               String(NoteCommands.maximumBodyBytes), String(bodyBytes)))
        }
        request.parameters["title"] = .string(title)
        request.parameters["field"] = nil
        return .continue
    }
}

/// Inserts or updates the note in one save, off the main thread (BCO); adds `note` (its id).
struct SaveNoteBusiness: ControlObject {
    let context: BackgroundContext

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        let save = try request.command(as: SaveNote.self)
        let saved = try await context.perform { context in
            let now = Date()
            let noteID: ObjectID
            if let id = save.id {
                guard var note = try context.record(Note.self, id: Note.objectID(id)) else {
                    throw NoteError.missing(id.uuidString)
                }
                note.title = save.title
                note.body = save.body
                note.updated = now
                try context.update(note)
                noteID = Note.objectID(id)
            } else {
                noteID = try context.insert(Note(title: save.title, body: save.body, now: now))
            }
            try context.save()
            return noteID.uuid.uuidString
        }
        request.parameters["note"] = .string(saved)
        return .continue
    }
}

/// Deletes the note `id` (BCO); adds `deleted`, the ``Note`` as it was (its JSON), for the undo.
struct DeleteNoteBusiness: ControlObject {
    let context: BackgroundContext

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        let id = try request.command(as: DeleteNote.self).id
        let deleted = try await context.perform { context in
            guard let note = try context.record(Note.self, id: Note.objectID(id)) else {
                throw NoteError.missing(id.uuidString)
            }
            try context.delete(note)
            try context.save()
            return note
        }
        request.parameters["deleted"] = try deleted.json()
        return .continue
    }
}

/// After a save or delete: the editor that sent it forgets its unsaved edits and, when it is
/// still on top, the window goes back to the notes list — opening it when the editor was
/// opened from elsewhere (VCO, main actor). An editor the user has
/// since covered with another page stays where it is.
@MainActor
struct NoteSaved: ViewControlObject {
    weak var shell: Shell?

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        guard let shell, let editor = shell.navigator.page(request.page) as? NotePage else { return .continue }
        editor.didSave()
        guard editor === shell.navigator.top else { return .continue }
        shell.back()
        // A note written from anywhere (Ctrl+N) shows among the notes once saved.
        if shell.navigator.top?.values.path != "/notes" { try? shell.navigate(to: "/notes") }
        // The keyboard focus goes to the note saved, once the list shows it.
        if let saved = request.parameters["note"]?.stringValue, let uuid = UUID(uuidString: saved),
           case .table(let notes) = shell.navigator.top?.content {
            notes.requestFocus(on: TableItemID(Note.objectID(uuid)))
        }
        return .continue
    }
}

/// Shows why a note could not be saved on the editor that sent it, tied to the field at fault
/// when validation named one (ECO, main actor).
@MainActor
struct ShowNoteProblem: ViewControlObject {
    weak var shell: Shell?

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        let page = shell?.navigator.page(request.page)
        page?.messageKind = .error
        page?.messageField = request.parameters["field"]?.stringValue
        page?.message = request.failure?.reason ?? tr("The note could not be saved.")
        return .stop  // shown once: the `default` error objects need not run too
    }
}

enum NoteError: Error, CustomStringConvertible {
    case missing(String)

    var description: String {
        switch self {
        case .missing(let id): return "there is no note \(id) (it may have been deleted)"
        }
    }
}
