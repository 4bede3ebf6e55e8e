import TrellisCore
import TrellisStore
import TrellisSync

/// `/notes`: the notes in the store, newest change first, live (a fetched source: a pull or
/// an edit shows at once); a row opens `/notes/:id`, the header bar's "New note" opens
/// `/notes/new`, and, when a server is configured, "Sync", "Conflicts" and "Trash" open
/// `/sync`, `/conflicts` and `/trash`.
final class NotesPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Notes")
        actions = [PageAction(id: "new", label: tr("New note"), icon: "list-add-symbolic")]
        if shell.resolve(EntitySync.self) != nil {
            actions += [PageAction(id: "sync", label: tr("Sync"), icon: "emblem-synchronizing-symbolic"),
                        PageAction(id: "conflicts", label: tr("Conflicts"), icon: "dialog-warning-symbolic"),
                        PageAction(id: "trash", label: tr("Trash"), icon: "user-trash-symbolic")]
        }
        guard let store = shell.resolve(StoreBox.self)?.store else {
            content = .text(tr("No store is open."))
            return
        }
        do {
            let request = RecordRequest<Note>(sortKeys: [.descending("updated")])
            let source = try FetchedSource(request: request, context: store.newContext())
            let callbacks = StandardCallbacks(route: { item in "/notes/\(item.objectID?.uuid.uuidString ?? "")" },
                                              navigate: { [weak shell] path in try? shell?.navigate(to: path) })
            let notes = TableContainer.records(source, keys: ["title", "body"], callbacks: callbacks)
            notes.emptyText = tr("No notes yet. Press + or Ctrl+N to write one.")
            content = .table(notes)
        } catch {
            content = .text(tr("The notes cannot be read: %@", String(describing: error)))
        }
    }

    override func perform(pageAction id: String) {
        switch id {
        case "new": try? shell?.navigate(to: "/notes/new")
        case "sync", "conflicts", "trash": try? shell?.navigate(to: "/\(id)")
        default: break
        }
    }
}

/// The store the demo's pages read, provided in the shell's environment.
public final class StoreBox {
    public let store: PersistentStore
    public init(_ store: PersistentStore) { self.store = store }
}
