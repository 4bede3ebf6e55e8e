import Foundation
import TrellisCore
import TrellisStore

/// `/notes/new` and `/notes/:id`: a note's editor.
///
/// Typing changes a managed object in the page's own context, unsaved, each field's run of
/// typing one undo group: `undo()` (Ctrl+Z) and `redo()` (Ctrl+Shift+Z) step through them.
/// Save sends `note.save` through the front controller (validated and saved off the main
/// thread); leaving without saving forgets the edits.
final class NotePage: PageController {
    private var context: ManagedObjectContext?
    private var note: ManagedObject?
    private var form: Form?
    private var fieldBeingTyped: String?

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
                guard let uuid = UUID(uuidString: id), let note = try context.object(with: ObjectID(entityName: "Note", uuid: uuid)) else {
                    title = tr("Unknown note")
                    content = .text(tr("There is no note %@.", id))
                    return
                }
                self.note = note
                title = note["title"].stringValue ?? tr("Note")
            } else {
                note = try context.insert("Note")
                title = tr("New note")
            }
            context.removeAllUndoActions()
        } catch {
            title = tr("Note")
            content = .text(tr("The note cannot be opened: %@", String(describing: error)))
            return
        }
        var actions: [Form.Action] = [.init(id: "save", label: tr("Save"))]
        if id != nil { actions.append(.init(id: "delete", label: tr("Delete"))) }
        let form = Form(fields: [
            .init(id: "title", label: tr("Title"), value: note?["title"].stringValue ?? ""),
            .init(id: "body", label: tr("Text"), style: .multiline, value: note?["body"].stringValue ?? ""),
        ], actions: actions)
        form.onEdit = { [weak self] id, value in self?.userTyped(id, value) }
        form.onAction = { [weak self] action, form in self?.pressed(action, form) }
        self.form = form
        content = .form(form)
    }

    /// Records typing in the context: consecutive typing in one field is one undo group.
    private func userTyped(_ field: String, _ value: String) {
        guard let context, let note else { return }
        if fieldBeingTyped != field {
            if fieldBeingTyped != nil { context.endUndoGroup() }
            context.beginUndoGroup(named: "Typing")
            fieldBeingTyped = field
        }
        note[field] = .string(value)
    }

    private func pressed(_ action: String, _ form: Form) {
        guard let shell else { return }
        finishTyping()
        message = nil
        var parameters: [String: JSONValue] = ["title": .string(form["title"] ?? ""), "body": .string(form["body"] ?? "")]
        if let id = values.parameters["id"] { parameters["id"] = .string(id) }
        switch action {
        case "save": _ = shell.controller.submit(NoteCommands.save, parameters: parameters)
        case "delete": _ = shell.controller.submit(NoteCommands.delete, parameters: parameters)
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
        guard let note else { return }
        form?.setValues(["title": note["title"].stringValue ?? "", "body": note["body"].stringValue ?? ""])
    }

    /// The save went through: forget the unsaved copy.
    func didSave() {
        finishTyping()
        context?.rollback()
    }
}
