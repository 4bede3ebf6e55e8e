import TrellisCore

/// A batch ``FetchedResultsChange`` told as a sequence of single ``TableChange``s, and the
/// intermediate states between them.
///
/// `TableSource` announces one change at a time, each in the state right after it. The
/// sequence is: row removals outside deleted sections (descending), deleted sections
/// (descending, with the ids of their rows), inserted sections (ascending, with their
/// final rows), row insertions into the other sections (ascending), updates. While it is
/// told, a row of an intermediate state is found by walking the steps told so far
/// backwards: to a row of the final state (read from the new results) or of the old
/// state (read from the old snapshot).
struct SourceTransition {
    enum Step {
        case deleteRow(TableIndexPath, ObjectID)
        case deleteSection(Int, [ObjectID])
        /// A section inserted at an index, which is its final index.
        case insertSection(Int)
        /// A row inserted at a path, which is its final path.
        case insertRow(TableIndexPath, ObjectID)
        case move(from: TableIndexPath, to: TableIndexPath, ObjectID)
        case update(TableIndexPath)

        var tableChange: TableChange {
            switch self {
            case .deleteRow(let path, let id): return .delete(path, id: TableItemID(id))
            case .deleteSection(let section, let ids): return .deleteSection(section, removedIDs: ids.map(TableItemID.init))
            case .insertSection(let section): return .insertSection(section)
            case .insertRow(let path, _): return .insert(path)
            case .move(let from, let to, _): return .move(from: from, to: to)
            case .update(let path): return .update(path)
            }
        }
    }

    /// Where a row of an intermediate state comes from.
    enum Origin: Equatable {
        case old(TableIndexPath)
        case new(TableIndexPath)
    }

    let steps: [Step]
    /// How many steps have been told.
    private(set) var told = 0
    /// Row counts and section keys of the state after the steps told.
    private(set) var rowCounts: [Int]
    private(set) var sectionKeys: [AttributeValue]
    private let newSections: [FetchedSection]

    /// The steps of `change` from a state with `oldSections` to one with `newSections`.
    init(change: FetchedResultsChange, oldSections: [FetchedSection], newSections: [FetchedSection]) {
        rowCounts = oldSections.map(\.count)
        sectionKeys = oldSections.map(\.key)
        self.newSections = newSections
        let deletedSections = Set(change.deletedSections)
        let insertedSections = Set(change.insertedSections)
        if change.moved.count == 1, let move = change.moved.first, change.deleted.isEmpty, change.inserted.isEmpty,
            deletedSections.isEmpty, insertedSections.isEmpty
        {
            steps = [.move(from: move.from, to: move.to, move.id)] + change.updated.map { .update($0.path) }
            return
        }
        let departures = change.deleted.map { ($0.path, $0.id) } + change.moved.map { ($0.from, $0.id) }
        let arrivals = change.inserted.map { ($0.path, $0.id) } + change.moved.map { ($0.to, $0.id) }
        var steps: [Step] = departures.filter { !deletedSections.contains($0.0.section) }
            .sorted { $0.0 > $1.0 }.map { .deleteRow($0.0, $0.1) }
        for section in deletedSections.sorted(by: >) {
            steps.append(.deleteSection(section, departures.filter { $0.0.section == section }.sorted { $0.0 < $1.0 }.map(\.1)))
        }
        steps += insertedSections.sorted().map { .insertSection($0) }
        steps += arrivals.filter { !insertedSections.contains($0.0.section) }.sorted { $0.0 < $1.0 }
            .map { .insertRow($0.0, $0.1) }
        steps += change.updated.map { .update($0.path) }
        self.steps = steps
    }

    var isFinished: Bool { told == steps.count }

    /// Applies the next step to the counts and returns it.
    mutating func tellNext() -> Step {
        let step = steps[told]
        told += 1
        switch step {
        case .deleteRow(let path, _):
            rowCounts[path.section] -= 1
        case .deleteSection(let section, _):
            rowCounts.remove(at: section)
            sectionKeys.remove(at: section)
        case .insertSection(let section):
            rowCounts.insert(newSections[section].count, at: section)
            sectionKeys.insert(newSections[section].key, at: section)
        case .insertRow(let path, _):
            rowCounts[path.section] += 1
        case .move(let from, let to, _):
            rowCounts[from.section] -= 1
            rowCounts[to.section] += 1
        case .update:
            break
        }
        return step
    }

    /// Where the row at `path` of the current state comes from.
    func origin(of path: TableIndexPath) -> Origin {
        var path = path
        for step in steps[..<told].reversed() {
            switch step {
            case .deleteRow(let deleted, _):
                if path.section == deleted.section && path.row >= deleted.row { path.row += 1 }
            case .deleteSection(let section, _):
                if path.section >= section { path.section += 1 }
            case .insertSection(let section):
                if path.section == section { return .new(path) }
                if path.section > section { path.section -= 1 }
            case .insertRow(let inserted, _):
                if path == inserted { return .new(path) }
                if path.section == inserted.section && path.row > inserted.row { path.row -= 1 }
            case .move(let from, let to, _):
                if path == to { return .new(path) }
                if path.section == to.section && path.row > to.row { path.row -= 1 }
                if path.section == from.section && path.row >= from.row { path.row += 1 }
            case .update(let updated):
                // Updates come after every other step, so the path is already one of the new
                // state: the row shows the object's new values, not the old snapshot's.
                if path == updated { return .new(path) }
            }
        }
        return .old(path)
    }

    /// Where the object `id` is in the current state, given where it was in the old state
    /// and where it is in the new one.
    func path(of id: ObjectID, oldPath: TableIndexPath?, newPath: TableIndexPath?) -> TableIndexPath? {
        var path = oldPath
        for step in steps[..<told] {
            switch step {
            case .deleteRow(let deleted, let other):
                if other == id { path = nil } else if let current = path, current.section == deleted.section,
                    current.row > deleted.row
                {
                    path?.row -= 1
                }
            case .deleteSection(let section, _):
                if path?.section == section { path = nil } else if let current = path, current.section > section {
                    path?.section -= 1
                }
            case .insertSection(let section):
                if let current = path, current.section >= section { path?.section += 1 }
                if newPath?.section == section { path = newPath }
            case .insertRow(let inserted, let other):
                if other == id { path = inserted } else if let current = path, current.section == inserted.section,
                    current.row >= inserted.row
                {
                    path?.row += 1
                }
            case .move(let from, let to, let other):
                if other == id { path = to; continue }
                if let current = path, current.section == from.section, current.row > from.row { path?.row -= 1 }
                if let current = path, current.section == to.section, current.row >= to.row { path?.row += 1 }
            case .update:
                break
            }
        }
        return path
    }
}
