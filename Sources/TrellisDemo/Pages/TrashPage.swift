import Foundation
import TrellisCore
import TrellisSync

/// `/trash`: the notes a pull took out because the server deleted them, most recent first,
/// live; a row opens `/trash/:id`, where the note can be restored.
final class TrashPage: PageController {
    private struct Row: CustomStringConvertible {
        let trashed: TrashedObject
        var description: String {
            let date = trashed.trashed.formatted(date: .abbreviated, time: .shortened)
            return "\(trashed["title"]?.stringValue ?? "") | \(TrashPage.reason(of: trashed)), \(date)"
        }
    }

    private let rows = ArraySource<Row>([], id: { $0.trashed.id })

    /// Why the note is in the Trash, for people.
    nonisolated static func reason(of trashed: TrashedObject) -> String {
        trashed.reason == EntitySync.notOnServer
            ? tr("no longer on the server: deleted on another device, or lost by the server")
            : tr("deleted on the server")
    }

    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Trash")
        guard shell.resolve(EntitySync.self) != nil else {
            content = .text(tr("Sync is off: no server is configured, so nothing is ever taken out of the notes."))
            return
        }
        let list = TableContainer.list(rows, callbacks: StandardCallbacks(onActivate: { [weak shell] item in
            guard let row = item.value(as: Row.self) else { return }
            try? shell?.navigate(to: "/trash/\(row.trashed.id.uuidString)")
        }))
        list.emptyText = tr("The Trash is empty. A note deleted on the server comes here, so that nothing is lost.")
        content = .table(list)
        reload()
        for message in [EntitySync.Events.finished, EntitySync.Events.keptChanged] {
            shell.bus.watchOnMainActor(message, owner: self) { page, _ in page.reload() }
        }
    }

    private func reload() {
        guard let sync = shell?.resolve(EntitySync.self) else { return }
        do {
            rows.replace(all: try sync.trashedObjects().map(Row.init))
        } catch {
            message = tr("The Trash cannot be read: %@", String(describing: error))
        }
    }
}

/// `/trash/:id`: a trashed note, read-only, with Restore (back among the notes and on the
/// server) and Delete for good.
final class TrashedNotePage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Trash")
        guard let sync = shell.resolve(EntitySync.self), let id = values.parameters["id"].flatMap(UUID.init(uuidString:)),
              let trashed = try? sync.trashedObjects().first(where: { $0.id == id })
        else {
            content = .text(tr("This note is not in the Trash."))
            return
        }
        title = trashed["title"]?.stringValue ?? tr("Note")
        let form = Form(fields: [
            .init(id: "title", label: tr("Title"), style: .readOnly, value: trashed["title"]?.stringValue ?? ""),
            .init(id: "body", label: tr("Text"), style: .readOnly, value: trashed["body"]?.stringValue ?? ""),
            .init(id: "reason", label: tr("Why"), style: .readOnly, value: TrashPage.reason(of: trashed)),
        ], actions: [.init(id: "restore", label: tr("Restore")), .init(id: "discard", label: tr("Delete for good"))])
        form.onAction = { [weak self] action, _ in self?.pressed(action, id: id) }
        content = .form(form)
    }

    private func pressed(_ action: String, id: UUID) {
        guard let shell, let sync = shell.resolve(EntitySync.self) else { return }
        do {
            if action == "restore" {
                try sync.restore(id)
            } else if action == "discard" {
                try sync.discardFromTrash(id)
            }
            shell.back()
        } catch {
            message = tr("The note cannot be restored: %@", String(describing: error))
        }
    }
}
