import Foundation
import TrellisCore
import TrellisStore
import TrellisSync

/// A sync pass as `trellis sync` and `trellis --headless --server` print it.
///
/// ```text
/// server     http://127.0.0.1:3000/notes (upsert: yes, client id kept: yes, field filter: no, versions: no)
/// sent       2 changes
/// received   1 new, 1 changed, 0 to the Trash
/// queued     1
///   create "Shopping" (2 attempts; create sent, outcome unknown): POST …: no answer within 15.0 s
/// ```
enum SyncSummary {
    /// A pass that stopped early: the error and what is still queued.
    struct Failure: Error, CustomStringConvertible {
        let error: SyncError
        let pending: Int
        var description: String { "sync stopped: \(error); \(counted(pending, "change")) still queued" }
    }

    @MainActor
    static func text(_ report: SyncReport, of sync: EntitySync, store: PersistentStore) throws -> String {
        var lines = [
            "server     \(sync.collection.url.absoluteString) (\(sync.capabilities))",
            "sent       \(counted(report.pushed, "change"))",
            "received   \(report.inserted) new, \(report.updated) changed, \(report.trashed) to the Trash",
        ]
        if report.resolved > 0 { lines.append("resolved   \(counted(report.resolved, "create")) whose answer was lost, found on the server") }
        if report.recreated > 0 { lines.append("recreated  \(counted(report.recreated, "note")) the server had lost") }
        if report.duplicates > 0 { lines.append("duplicates \(report.duplicates) removed from the server") }
        if !report.conflicts.isEmpty { lines.append("conflicts  \(report.conflicts.count) (each local edit kept as a copy)") }
        if !report.skipped.isEmpty { lines.append("skipped    \(report.skipped.joined(separator: ", ")) (not readable as notes)") }
        let queued = try sync.queuedChanges()
        lines.append("queued     \(queued.count)")
        let context = store.newContext()
        for change in queued {
            let title = (try? context.object(with: change.object))??["title"].stringValue
                ?? change.attributes["title"]?.stringValue ?? change.object.uuid.uuidString
            var line = "  \(change.operation.rawValue) \"\(title)\""
            var notes: [String] = []
            if change.attempts > 0 { notes.append(counted(change.attempts, "attempt")) }
            if change.awaitsOutcome { notes.append("create sent, outcome unknown") }
            if !notes.isEmpty { line += " (\(notes.joined(separator: "; ")))" }
            if let error = change.lastError { line += ": \(error)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// "1 change", "2 changes": English, as the rest of the command's output (`noun`'s plural
    /// takes an s).
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
