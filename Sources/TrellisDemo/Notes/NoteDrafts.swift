import Foundation
import TrellisCore

/// What was typed in note editors and not saved yet, kept beside the store
/// (`<store>.drafts.json`) from the first keystroke until the note is saved or the changes
/// discarded: Back, Escape or closing the window lose nothing, and the editor of the same note
/// (or the next new note) brings the typing back.
///
/// Keystrokes change the drafts in memory; the file is written at most every ``writeDelay``
/// (a 1 MiB note is not encoded again on every key) and when the drafts are released, always
/// off the main actor (encoding a 10 MiB draft must not stall the window), in order, on the
/// file's own queue, which a new `NoteDrafts` of the same store waits for before reading (and
/// one of another store does not: a slow write elsewhere never blocks its main actor). A crash
/// can lose the last ``writeDelay`` of typing.
@MainActor
final class NoteDrafts {
    /// How long a change waits before the file is written (more changes join it).
    static let writeDelay = Duration.milliseconds(500)

    /// One queue per drafts file (by the store's path), writing it one write after the other.
    private static let writers = LockedState<[String: DispatchQueue]>([:])

    private static func writer(for storeURL: URL) -> DispatchQueue {
        writers.withLock { writers in
            let key = storeURL.standardizedFileURL.path
            if let queue = writers[key] { return queue }
            let queue = DispatchQueue(label: "trellis.demo.drafts")
            writers[key] = queue
            return queue
        }
    }

    private let file: SideFile<[String: [String: String]]>
    private let writer: DispatchQueue
    private var drafts: [String: [String: String]]
    private var writeScheduled = false

    /// The drafts kept beside the store at `storeURL` (once the writes still queued are done).
    init(storeURL: URL) {
        let file = SideFile<[String: [String: String]]>(beside: storeURL, name: "drafts")
        self.file = file
        let writer = Self.writer(for: storeURL)
        self.writer = writer
        drafts = writer.sync { file.load() } ?? [:]
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
        scheduleWrite()
    }

    /// Forgets the draft of the note `key` (saved, or discarded by the user).
    func discard(_ key: String) {
        guard drafts.removeValue(forKey: key) != nil else { return }
        scheduleWrite()
    }

    /// Queues the write of the file now if a change waits for it.
    func flush() {
        guard writeScheduled else { return }
        writeScheduled = false
        let (file, drafts) = (file, drafts)
        writer.async { file.save(drafts) }
    }

    private func scheduleWrite() {
        guard !writeScheduled else { return }
        writeScheduled = true
        Task { [weak self] in
            try? await Task.sleep(for: Self.writeDelay)
            self?.flush()
        }
    }

    isolated deinit {
        flush()
    }
}
