import Foundation
import TrellisCore
import TrellisStore
import TrellisSync

/// `/sync`: the sync's state after the last pass, the whole reason when it failed, what waits
/// for the server (each change with its last error), and "Sync now"; after a list that left
/// out too many notes, the choice between taking them out and sending them again. Live: it
/// follows every pass.
final class SyncPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Sync")
        guard shell.resolve(EntitySync.self) != nil else {
            content = .text(tr("Sync is off: no server is configured (give --server URL, or set sync.server in the settings file)."))
            return
        }
        reload()
        for message in [EntitySync.Events.finished, EntitySync.Events.keptChanged] {
            shell.bus.watchOnMainActor(message, owner: self) { page, _ in page.reload() }
        }
    }

    private func reload() {
        guard let shell, let sync = shell.resolve(EntitySync.self) else { return }
        let report = shell.resolve(DemoSyncState.self)?.lastReport
        let state = report.map(DemoSync.stateLine(of:)) ?? tr("Sync: no pass has ended yet")
        var reasons = [report?["failure"]?.stringValue].compactMap { $0 }
        reasons += report?["refusals"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var fields: [Form.Field] = [
            .init(id: "server", label: tr("Server"), style: .readOnly,
                  value: "\(sync.collection.url.absoluteString)\n\(sync.capabilities)"),
            .init(id: "state", label: tr("State"), style: .readOnly, value: state),
            .init(id: "reason", label: tr("Why"), style: .readOnly,
                  value: reasons.isEmpty ? tr("(nothing failed)") : reasons.joined(separator: "\n")),
            .init(id: "waiting", label: tr("Waiting for the server"), style: .readOnly, value: waiting(sync)),
        ]
        var actions: [Form.Action] = [.init(id: "retry", label: tr("Sync now"))]
        if let suspect = report?["suspectList"], !suspect.isNull {
            fields.append(.init(id: "missing", label: tr("Left out by the server"), style: .readOnly,
                                value: tr("The server's list leaves out %@ of the %@ notes it had. Nothing was taken out: take them out (to the Trash) if they were deleted elsewhere, or send them again if the server lost them.",
                                          String(suspect["missing"]?.intValue ?? 0), String(suspect["known"]?.intValue ?? 0))))
            actions += [.init(id: "accept", label: tr("Take them out")), .init(id: "send", label: tr("Send them again"))]
        }
        let form = Form(fields: fields, actions: actions)
        form.onAction = { [weak self] action, _ in self?.pressed(action) }
        content = .form(form)
    }

    /// The queued changes, one a line: `create "Shopping" (2 attempts): why the last failed`.
    private func waiting(_ sync: EntitySync) -> String {
        guard let changes = try? sync.queuedChanges(), !changes.isEmpty else { return tr("Nothing: every change is on the server.") }
        let context = shell?.resolve(StoreBox.self)?.store.newContext()
        return changes.map { change in
            let title = (try? context?.object(with: change.object))??["title"].stringValue
                ?? change.attributes["title"]?.stringValue ?? change.object.uuid.uuidString
            var line = "\(change.operation.rawValue) \"\(title)\""
            if change.attempts > 0 {
                line += " (" + trn("%@ attempt", "%@ attempts", count: change.attempts, String(change.attempts)) + ")"
            }
            if let error = change.lastError { line += ": \(error)" }
            return line
        }.joined(separator: "\n")
    }

    private func pressed(_ action: String) {
        guard let sync = shell?.resolve(EntitySync.self) else { return }
        do {
            switch action {
            case "retry": break
            case "accept": try sync.acceptMissing()
            case "send": try sync.sendMissingAgain()
            default: return
            }
            message = tr("Syncing…")
            Task { [weak self] in
                _ = try? await sync.syncNow()
                self?.message = nil
            }
        } catch {
            message = String(describing: error)
        }
    }
}
