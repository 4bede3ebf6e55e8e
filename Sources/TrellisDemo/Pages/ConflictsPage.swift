import Foundation
import TrellisCore
import TrellisStore
import TrellisSync

/// `/conflicts`: the notes whose local edit lost to the server's state, most recent first;
/// a row opens `/conflicts/:id` with both versions.
final class ConflictsPage: PageController {
    private struct Row: CustomStringConvertible {
        let conflict: SyncConflict
        let title: String
        var description: String {
            "\(title) | \(conflict.detected.formatted(date: .abbreviated, time: .shortened))"
        }
    }

    private let rows = ArraySource<Row>([], id: { $0.conflict.original })

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Conflicts")
        guard shell.resolve(EntitySync.self) != nil else {
            content = .text(tr("Sync is off: no server is configured, so there are no conflicts."))
            return
        }
        let list = TableContainer.list(rows, callbacks: StandardCallbacks(onActivate: { [weak shell] item in
            guard let row = item.value(as: Row.self) else { return }
            try? shell?.navigate(to: "/conflicts/\(row.conflict.original.uuid.uuidString)")
        }))
        list.emptyText = tr("No conflicts. When a note is changed here and on the server at once, both versions are kept and listed here.")
        content = .table(list)
        reload()
        for message in [EntitySync.Events.finished, EntitySync.Events.keptChanged] {
            shell.bus.watchOnMainActor(message, owner: self) { page, _ in page.reload() }
        }
    }

    private func reload() {
        guard let shell, let sync = shell.resolve(EntitySync.self), let store = shell.resolve(StoreBox.self)?.store else {
            return
        }
        do {
            let context = store.newContext()
            rows.replace(all: try sync.conflicts().map { conflict in
                Row(conflict: conflict, title: try context.record(Note.self, id: conflict.original)?.title ?? "")
            })
        } catch {
            message = tr("The conflicts cannot be read: %@", String(describing: error))
        }
    }
}

/// `/conflicts/:id`: the server's version (which the note now holds) and the local edit
/// (kept as a conflict copy) side by side; each opens in the editor, and Dismiss takes the
/// conflict off the list.
final class ConflictPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Conflict")
        guard let sync = shell.resolve(EntitySync.self), let store = shell.resolve(StoreBox.self)?.store,
              let id = try? values.parameter("id", as: UUID.self),
              let conflict = try? sync.conflicts().first(where: { $0.original.uuid == id })
        else {
            content = .text(tr("There is no such conflict (it may have been dismissed)."))
            return
        }
        let context = store.newContext()
        let original = try? context.record(Note.self, id: conflict.original)
        let copy = try? conflict.copy.flatMap { try context.record(Note.self, id: $0) }
        func text(_ note: Note?) -> String {
            guard let note else { return tr("(deleted since)") }
            return "\(note.title)\n\(note.body)"
        }
        var actions: [Form.Action] = [.init(id: "server", label: tr("Open the server's version"))]
        if conflict.copy != nil { actions.append(.init(id: "copy", label: tr("Open your version"))) }
        actions.append(.init(id: "dismiss", label: tr("Dismiss")))
        let form = Form(fields: [
            .init(id: "server", label: tr("The server's version"), style: .readOnly, value: text(original)),
            .init(id: "copy", label: tr("Your version (a copy)"), style: .readOnly,
                  value: conflict.copy != nil ? text(copy) : conflict.kind == .deletedOnServer
                      ? tr("(deleted on the server while you changed it: your version was sent again)")
                      : tr("(you had deleted the note: it was restored)")),
        ], actions: actions)
        form.onAction = { [weak self] action, _ in self?.pressed(action, conflict) }
        content = .form(form)
    }

    private func pressed(_ action: String, _ conflict: SyncConflict) {
        guard let shell, let sync = shell.resolve(EntitySync.self) else { return }
        do {
            switch action {
            case "server": try shell.navigate(to: "/notes/\(conflict.original.uuid.uuidString)")
            case "copy": if let copy = conflict.copy { try shell.navigate(to: "/notes/\(copy.uuid.uuidString)") }
            case "dismiss":
                try sync.dismissConflict(conflict)
                shell.back()
            default: break
            }
        } catch {
            message = String(describing: error)
        }
    }
}
