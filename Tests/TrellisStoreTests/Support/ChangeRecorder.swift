import Foundation
import TrellisCore
import TrellisTesting
@testable import TrellisStore

/// Records the changes a fetched results controller announces and waits for them.
@MainActor
final class ChangeRecorder {
    private(set) var changes: [FetchedResultsChange] = []
    let results: FetchedResultsController

    init(_ results: FetchedResultsController) {
        self.results = results
        results.onChange = { [weak self] change in self?.changes.append(change) }
    }

    /// Waits until `count` changes have arrived in all (polling with a deadline).
    func waitForChanges(_ count: Int, timeout: Duration = testDeadline) async throws {
        let deadline = ContinuousClock.now + timeout
        while changes.count < count {
            guard ContinuousClock.now < deadline else { throw Timeout(what: "\(count) changes, got \(changes.count)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Waits until the results show the store's latest save.
    func waitUntilCurrent(timeout: Duration = testDeadline) async throws {
        let latest = try results.context.store.read("sequence") { db in try StoreMetadata.commitSequence(in: db) }
        let deadline = ContinuousClock.now + timeout
        while results.pages.state.sequence < latest {
            guard ContinuousClock.now < deadline else { throw Timeout(what: "results at save \(latest)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    struct Timeout: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting for \(what)" }
    }
}

/// The ids of fetched results, section by section.
@MainActor
func listing(_ results: FetchedResultsController) throws -> [[ObjectID]] {
    try results.sections.indices.map { section in
        try (0..<results.numberOfRows(inSection: section)).map {
            try results.object(at: TableIndexPath(section: section, row: $0)).objectID
        }
    }
}

/// Applies a batch change to a listing as its documentation says: deletions (old paths)
/// in descending order, deleted sections, inserted sections, insertions (new paths) in
/// ascending order. Returns `nil` when a path or id does not fit.
func applying(_ change: FetchedResultsChange, to listing: [[ObjectID]]) -> [[ObjectID]]? {
    var sections = listing
    let removals = (change.deleted.map { ($0.path, $0.id) } + change.moved.map { ($0.from, $0.id) })
        .sorted { $0.0 > $1.0 }
    for (path, id) in removals {
        guard sections.indices.contains(path.section), sections[path.section].indices.contains(path.row),
            sections[path.section][path.row] == id
        else { return nil }
        sections[path.section].remove(at: path.row)
    }
    for section in change.deletedSections.sorted(by: >) {
        guard sections.indices.contains(section), sections[section].isEmpty else { return nil }
        sections.remove(at: section)
    }
    for section in change.insertedSections.sorted() {
        guard section <= sections.count else { return nil }
        sections.insert([], at: section)
    }
    let additions = (change.inserted.map { ($0.path, $0.id) } + change.moved.map { ($0.to, $0.id) }).sorted { $0.0 < $1.0 }
    for (path, id) in additions {
        guard sections.indices.contains(path.section), path.row <= sections[path.section].count else { return nil }
        sections[path.section].insert(id, at: path.row)
    }
    return sections
}
