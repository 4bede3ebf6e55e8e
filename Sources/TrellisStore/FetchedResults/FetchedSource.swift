import Logging
import TrellisCore

/// Fetched results as a TrellisCore `TableSource`: what a `TableContainer` shows for a
/// store query (the notes list, the people list).
///
/// ```swift
/// let source = try FetchedSource(
///     request: FetchRequest(entityName: "Note", sortKeys: [.descending("created")]), context: context)
/// let container = TableContainer(source: source, cells: KeyValueCellProvider(keys: ["title"]))
/// let title = source.item(at: TableIndexPath(row: 0)).value(as: ManagedObject.self)?["title"]
/// ```
///
/// Items have the object's ``ObjectID`` as identity and the context's ``ManagedObject`` as
/// value (it reads as `KeyValueCoding`). Sections are titled by the section key's value;
/// without a section key there is one untitled section. Each save's batch of changes is
/// announced one `TableChange` at a time, as `TableSource` requires (see
/// `SourceTransition`); a single inserted note is one `.insert`. A batch of more than
/// ``maximumAnnouncedSteps`` steps is announced as `.reload`.
@MainActor
public final class FetchedSource: TableSource {
    /// The live query behind the source.
    public let results: FetchedResultsController
    /// The changes announced, one at a time.
    public let changes = TableChangeObservers()
    /// Above this many single changes, a batch is announced as a reload.
    public static let maximumAnnouncedSteps = 2_000

    /// The batch being announced and the state it started from.
    private struct Announcement {
        var transition: SourceTransition
        let old: FetchedPages
    }

    private var announcement: Announcement?
    private let logger = Logger(trellis: "trellis.store.fetched-source")

    /// A source over `results`, which it follows from now on.
    public init(_ results: FetchedResultsController) {
        self.results = results
        results.transitionObserver = { [weak self] old, change in self?.announce(change, from: old) }
    }

    /// A source over a new ``FetchedResultsController``.
    public convenience init(request: FetchRequest, sectionKey: String? = nil, context: ManagedObjectContext) throws {
        self.init(try FetchedResultsController(request: request, sectionKey: sectionKey, context: context))
    }

    /// The sections shown (during an announcement, of the state after the change announced).
    public var numberOfSections: Int { announcement?.transition.rowCounts.count ?? results.sections.count }

    /// The rows of `section` in the state shown.
    public func numberOfRows(inSection section: Int) -> Int {
        announcement?.transition.rowCounts[section] ?? results.numberOfRows(inSection: section)
    }

    /// The object at `path`, identified by its ``ObjectID``; an unreadable row is an item whose value is the error.
    public func item(at path: TableIndexPath) -> TableItem {
        do {
            let object = try self.object(at: path)
            return TableItem(id: TableItemID(object.objectID), value: object)
        } catch {
            logger.error("cannot read row \(path) of \(results.request.entityName): \(error)")
            return TableItem(id: TableItemID("unreadable \(path)"), value: error)
        }
    }

    /// The object at `path` of the state being shown (an intermediate one while a batch
    /// is announced).
    private func object(at path: TableIndexPath) throws -> ManagedObject {
        guard let announcement else { return try results.object(at: path) }
        switch announcement.transition.origin(of: path) {
        case .new(let final):
            return try results.object(at: final)
        case .old(let previous):
            let old = announcement.old
            let row = try old.row(at: old.state.offset(of: previous))
            return results.context.object(for: row, entity: old.state.fetch.entity, refreshing: false)
        }
    }

    /// The section key's value as text; `nil` without a section key.
    public func title(forSection section: Int) -> String? {
        guard results.sectionKey != nil else { return nil }
        let key = announcement?.transition.sectionKeys[section] ?? results.sections[section].key
        return FetchedSection(key: key, count: 0, offset: 0).title
    }

    /// Where the object with `id` (an ``ObjectID``) is in the state shown.
    public func indexPath(of id: TableItemID) -> TableIndexPath? {
        guard let objectID = id.base.base as? ObjectID else { return nil }
        do {
            let newPath = try results.indexPath(for: objectID)
            guard let announcement else { return newPath }
            let oldState = announcement.old.state
            let oldPath = try oldState.positions(of: oldState.sortValues(of: [objectID]))[objectID]
                .map(oldState.path(ofOffset:))
            return announcement.transition.path(of: objectID, oldPath: oldPath, newPath: newPath)
        } catch {
            logger.error("cannot locate \(objectID): \(error)")
            return nil
        }
    }

    private func announce(_ change: FetchedResultsChange, from old: FetchedPages) {
        guard !change.isReload else {
            changes.announce(.reload)
            return
        }
        let transition = SourceTransition(change: change, oldSections: old.state.sections, newSections: results.sections)
        guard transition.steps.count <= Self.maximumAnnouncedSteps else {
            changes.announce(.reload)
            return
        }
        announcement = Announcement(transition: transition, old: old)
        defer { announcement = nil }
        while var current = announcement, !current.transition.isFinished {
            let step = current.transition.tellNext()
            announcement = current
            changes.announce(step.tableChange)
        }
    }
}
