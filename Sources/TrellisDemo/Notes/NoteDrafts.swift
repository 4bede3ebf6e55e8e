import Foundation
import TrellisCore

/// What was typed in note editors and not saved yet, kept beside the store
/// (`<store>.drafts.json`) from the first keystroke until the note is saved or the changes
/// discarded: Back, Escape, closing the window or a crash lose nothing, and the editor of
/// the same note (or the next new note) brings the typing back.
@MainActor
final class NoteDrafts {
    private let file: SideFile<[String: [String: String]]>
    private var drafts: [String: [String: String]]

    /// The drafts kept beside the store at `storeURL`.
    init(storeURL: URL) {
        file = SideFile(beside: storeURL, name: "drafts")
        drafts = file.load() ?? [:]
    }

    /// The key of a note's draft: its id, or `new` for a note not saved yet.
    static func key(noteID: String?) -> String { noteID ?? "new" }

    /// The unsaved values of the note `key`, by field.
    func draft(for key: String) -> [String: String]? {
        drafts[key]
    }

    /// Keeps `values` as the draft of the note `key`.
    func keep(_ values: [String: String], for key: String) {
        guard drafts[key] != values else { return }
        drafts[key] = values
        file.save(drafts)
    }

    /// Forgets the draft of the note `key` (saved, or discarded by the user).
    func discard(_ key: String) {
        guard drafts.removeValue(forKey: key) != nil else { return }
        file.save(drafts)
    }
}
