import Foundation
import TrellisCore
import TrellisStore

/// `/notes/new` and `/notes/:id`: a note's editor.
///
/// Typing changes the note (a ``Note`` record) in the page's own context, unsaved, each
/// field's run of typing one undo group: `undo()` (Ctrl+Z) and `redo()` (Ctrl+Shift+Z) step
/// through them. Save sends ``SaveNote`` (`note.save`) through the front controller
/// (validated and saved off the main thread). Unsaved typing is kept as a draft
/// (``NoteDrafts``) from the first keystroke, so leaving the editor loses nothing: the next editor of the note shows it again, until Save
/// or "Discard changes". Delete asks to be pressed twice.
///
/// The editor follows the store: when the note is saved elsewhere (a pull, another window),
/// each field the user has not changed takes the new value; a field being edited keeps
/// what was typed, and the page says so.
final class NotePage: PageController {
    /// The form's fields and the note's properties they edit.
    private static let fields: KeyValuePairs<String, WritableKeyPath<Note, String>> = ["title": \.title, "body": \.body]
    private var context: ManagedObjectContext?
    /// The note as edited (unsaved), as the context has it.
    private var note: Note?
    private var form: Form?
    private var fieldBeingTyped: String?
    /// The saved values the fields started from (or last took from the store).
    private var loaded: [String: String] = [:]
    private var drafts: NoteDrafts?
    /// Set by a first press of Delete: the next press deletes.
    private var deleteArmed = false
    /// Set when this editor sent the note's delete (until the next button pressed, should the
    /// delete fail): its deletion is not news from elsewhere.
    private var deleteSent = false
    private var draftKey: String { NoteDrafts.key(noteID: values.parameters["id"]) }

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        guard let store = shell.resolve(StoreBox.self)?.store else {
            content = .text(tr("No store is open."))
            return
        }
        let context = store.newContext()
        self.context = context
        let id = values.parameters["id"]
        do {
            if let id {
                let uuid = try values.parameter("id", as: UUID.self)
                guard let note = try context.record(Note.self, id: Note.objectID(uuid)) else {
                    title = tr("Unknown note")
                    content = .text(tr("There is no note %@.", id))
                    return
                }
                self.note = note
                title = note.title
            } else {
                var note = Note()
                note.id = try context.insert(note)
                self.note = note
                title = tr("New note")
            }
            context.removeAllUndoActions()
        } catch let error as NavigationError {
            title = tr("Unknown note")
            content = .text(error.description)
            return
        } catch {
            title = tr("Note")
            content = .text(tr("The note cannot be opened: %@", String(describing: error)))
            return
        }
        var actions: [Form.Action] = [.init(id: "save", label: tr("Save")), .init(id: "discard", label: tr("Discard changes"))]
        if id != nil { actions.append(.init(id: "delete", label: tr("Delete"), isDestructive: true)) }
        let form = Form(fields: [
            .init(id: "title", label: tr("Title"), value: note?.title ?? ""),
            .init(id: "body", label: tr("Text"), style: .multiline, value: note?.body ?? ""),
        ], actions: actions)
        form.onEdit = { [weak self] id, value in self?.userTyped(id, value) }
        form.onAction = { [weak self] action, form in self?.pressed(action, form) }
        self.form = form
        loaded = form.values
        content = .form(form)
        drafts = shell.resolve(NoteDrafts.self)
        if let draft = drafts?.draft(for: draftKey), draft != loaded { restore(draft) }
        if let noteID = note?.id {
            let id = noteID.uuid.uuidString
            shell.bus.watchOnMainActor(PersistentStore.didSave, from: store, owner: self) { page, event in
                if event.data["updated"]?["Note"]?.arrayValue?.contains(.string(id)) == true {
                    page.noteChangedElsewhere(store: store)
                } else if event.data["deleted"]?["Note"]?.arrayValue?.contains(.string(id)) == true, !page.deleteSent {
                    page.message = tr("This note was deleted elsewhere; if the server deleted it, it is in the Trash.")
                }
            }
        }
    }

    /// Takes the saved values into the fields the user has not changed.
    private func noteChangedElsewhere(store: PersistentStore) {
        guard let form, let id = note?.id, let saved = try? store.newContext().record(Note.self, id: id) else { return }
        var taken: [String: String] = [:]
        var keptTyping = false
        for (field, property) in Self.fields {
            let value = saved[keyPath: property]
            guard value != loaded[field] else { continue }
            if form[field] == loaded[field] {
                taken[field] = value
            } else if form[field] != value {
                keptTyping = true
            }
            loaded[field] = value
        }
        if !taken.isEmpty {
            // Not an edit of the user's: nothing to undo.
            context?.isUndoRegistrationEnabled = false
            edit(taken)
            context?.isUndoRegistrationEnabled = true
            form.setValues(taken)
            if let newTitle = taken["title"] { title = newTitle }
        }
        if keptTyping {
            messageKind = .information
            message = tr("This note was changed elsewhere; your typing is kept, and saving keeps it.")
        }
    }

    /// Records typing in the context: consecutive typing in one field is one undo group.
    private func userTyped(_ field: String, _ value: String) {
        guard let context else { return }
        if fieldBeingTyped != field {
            if fieldBeingTyped != nil { context.endUndoGroup() }
            context.beginUndoGroup(named: "Typing")
            fieldBeingTyped = field
        }
        edit([field: value])
        deleteArmed = false
        if let form { form.values == loaded ? drafts?.discard(draftKey) : drafts?.keep(form.values, for: draftKey) }
    }

    /// Puts a kept draft back into the fields (and the unsaved note), and says so.
    private func restore(_ draft: [String: String]) {
        let values = draft.filter { field, _ in Self.fields.contains { $0.key == field } }
        edit(values)
        form?.setValues(values)
        messageKind = .information
        message = tr("Your unsaved changes are back. Save keeps them; Discard changes drops them.")
    }

    private func pressed(_ action: String, _ form: Form) {
        guard let shell else { return }
        finishTyping()
        message = nil
        deleteSent = false
        if action == "delete" && !deleteArmed {
            deleteArmed = true
            messageKind = .information
            message = tr("Press Delete again to delete “%@” for good.", loaded["title"] ?? "")
            return
        }
        deleteArmed = false
        if action == "discard" {
            discardChanges()
            return
        }
        // The id was read when the page opened: a page for an id that is not a UUID has no form.
        let id = try? values.parameter("id", as: UUID.self)
        switch (action, id) {
        case ("save", _):
            _ = shell.controller.submit(SaveNote(id: id, title: form["title"] ?? "", body: form["body"] ?? ""), from: self.id)
        case ("delete", let id?):
            deleteSent = true
            _ = shell.controller.submit(DeleteNote(id: id), from: self.id)
        default: break
        }
    }

    private func finishTyping() {
        if fieldBeingTyped != nil { context?.endUndoGroup() }
        fieldBeingTyped = nil
    }

    override var canUndo: Bool { context?.canUndo ?? false }

    override var canRedo: Bool { context?.canRedo ?? false }

    /// Undoes the last run of typing and shows the values it restores.
    override func undo() {
        finishTyping()
        context?.undo()
        showValues()
    }

    /// Redoes what `undo()` undid.
    override func redo() {
        finishTyping()
        context?.redo()
        showValues()
    }

    private func showValues() {
        guard let context, let id = note?.id, let note = try? context.record(Note.self, id: id) else { return }
        self.note = note
        form?.setValues(Dictionary(uniqueKeysWithValues: Self.fields.map { ($0.key, note[keyPath: $0.value]) }))
    }

    /// Writes fields' values into the note, in the context (tracked and undoable unless
    /// undo registration is off).
    private func edit(_ values: [String: String]) {
        guard let context, var note else { return }
        for (field, property) in Self.fields { if let value = values[field] { note[keyPath: property] = value } }
        // The note is this context's own object (read or inserted above), and its fields are
        // strings: writing it cannot fail.
        try? context.update(note)
        self.note = note
    }

    /// The save went through: forget the unsaved copy and its draft.
    func didSave() {
        finishTyping()
        context?.rollback()
        drafts?.discard(draftKey)
    }

    /// Drops the unsaved changes and their draft: the fields show the saved note again.
    private func discardChanges() {
        drafts?.discard(draftKey)
        form?.setValues(loaded)
        context?.isUndoRegistrationEnabled = false
        edit(loaded)
        context?.isUndoRegistrationEnabled = true
        context?.removeAllUndoActions()
    }
}
