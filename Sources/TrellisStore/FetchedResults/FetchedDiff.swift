import GRDB
import TrellisCore

/// Fetched results going from one snapshot to a newer one.
struct FetchedTransition: Sendable {
    let old: SnapshotState
    let new: SnapshotState
    let change: FetchedResultsChange
}

/// Works out how fetched results changed between two snapshots without reading every row.
///
/// The store's change log names the objects the saves in between touched. Each of them is
/// looked up in both snapshots (is it in the results, with which sort values) and placed
/// by counting the rows before it. Sections follow from the old ones and those positions.
/// Rows are matched by object id; a row whose sort values changed is a move, except when
/// it is the only such row and kept its place among the rows that stayed (then it is an
/// update). When the log does not cover the snapshots (another process wrote), or too
/// many rows changed, the change is a reload.
enum FetchedDiff {
    /// Above this many changed rows of the entity, a reload is cheaper than a diff.
    static let maximumChangedRows = 5_000

    /// The transition from `old` to the latest committed state; `nil` when no save
    /// happened since `old`.
    static func transition(from old: SnapshotState, store: PersistentStore) throws -> FetchedTransition? {
        let snapshot = try SnapshotState.openSnapshot(of: store, fetch: old.fetch)
        let sequence = try SnapshotState.sequence(of: snapshot)
        guard sequence != old.sequence else { return nil }
        let entity = old.fetch.entity.name
        guard let changes = store.changeCenter.changes(after: old.sequence, through: sequence) else {
            return try reload(from: old, snapshot: snapshot)
        }
        let ids = changes.changedIDs(of: entity)
        if ids.isEmpty {
            let new = old.advanced(to: snapshot, sequence: sequence, sections: old.sections)
            return FetchedTransition(old: old, new: new, change: FetchedResultsChange())
        }
        guard ids.count <= maximumChangedRows else { return try reload(from: old, snapshot: snapshot) }

        let probe = old.advanced(to: snapshot, sequence: sequence, sections: old.sections)
        let oldValues = try old.sortValues(of: ids)
        let newValues = try probe.sortValues(of: ids)
        let oldPositions = try old.positions(of: oldValues)
        let newPositions = try probe.positions(of: newValues)
        let sections = newSections(old: old, oldPositions: oldPositions, newValues: newValues, newPositions: newPositions)
        let new = old.advanced(to: snapshot, sequence: sequence, sections: sections)
        let change = makeChange(old: old, new: new, oldValues: oldValues, newValues: newValues,
                                oldPositions: oldPositions, newPositions: newPositions)
        return FetchedTransition(old: old, new: new, change: change)
    }

    private static func reload(from old: SnapshotState, snapshot: DatabaseSnapshot) throws -> FetchedTransition {
        let new = try SnapshotState.load(snapshot, fetch: old.fetch, isSectioned: old.isSectioned)
        return FetchedTransition(old: old, new: new, change: .reload)
    }

    /// The new sections: the old ones with rows taken out and put in (those left empty
    /// are gone), and sections of keys new to the results, placed where their first row
    /// now is.
    private static func newSections(old: SnapshotState, oldPositions: [ObjectID: Int], newValues: [ObjectID: [AttributeValue]],
                                     newPositions: [ObjectID: Int]) -> [FetchedSection]
    {
        var counts = old.sections.map(\.count)
        for position in oldPositions.values { counts[old.sectionIndex(ofOffset: position)] -= 1 }
        var arrivals: [SectionKey: (key: AttributeValue, count: Int, first: Int)] = [:]
        for (id, position) in newPositions {
            let key = old.isSectioned ? newValues[id]?.first ?? .null : .null
            let identity = SectionKey(key)
            let entry = arrivals[identity] ?? (key, 0, position)
            arrivals[identity] = (key, entry.count + 1, min(entry.first, position))
        }
        var persisting: [(key: AttributeValue, count: Int)] = []
        for (index, section) in old.sections.enumerated() {
            let arrived = arrivals.removeValue(forKey: SectionKey(section.key))?.count ?? 0
            let count = counts[index] + arrived
            if count > 0 || !old.isSectioned { persisting.append((section.key, count)) }
        }
        var inserted = arrivals.values.sorted { $0.first < $1.first }[...]
        var sections: [FetchedSection] = []
        var offset = 0
        var next = persisting[...]
        while !next.isEmpty || !inserted.isEmpty {
            let section: (key: AttributeValue, count: Int)
            if let candidate = inserted.first, candidate.first == offset || next.isEmpty {
                section = (candidate.key, candidate.count)
                inserted.removeFirst()
            } else {
                section = next.removeFirst()
            }
            sections.append(FetchedSection(key: section.key, count: section.count, offset: offset))
            offset += section.count
        }
        return sections
    }

    private static func makeChange(old: SnapshotState, new: SnapshotState, oldValues: [ObjectID: [AttributeValue]],
                                   newValues: [ObjectID: [AttributeValue]], oldPositions: [ObjectID: Int],
                                   newPositions: [ObjectID: Int]) -> FetchedResultsChange
    {
        var change = FetchedResultsChange()
        let oldKeys = Set(old.sections.map { SectionKey($0.key) })
        let newKeys = Set(new.sections.map { SectionKey($0.key) })
        change.deletedSections = old.sections.indices.filter { !newKeys.contains(SectionKey(old.sections[$0].key)) }
        change.insertedSections = new.sections.indices.filter { !oldKeys.contains(SectionKey(new.sections[$0].key)) }

        let departing = oldPositions.filter { newPositions[$0.key] == nil }
        let arriving = newPositions.filter { oldPositions[$0.key] == nil }
        let staying = oldPositions.keys.filter { newPositions[$0] != nil }
        var candidates = staying.filter { !SectionKey.identical(oldValues[$0] ?? [], newValues[$0] ?? []) }
        if candidates.count == 1, let only = candidates.first, let from = oldPositions[only], let to = newPositions[only] {
            let rankBefore = from - departing.values.filter { $0 < from }.count
            let rankAfter = to - arriving.values.filter { $0 < to }.count
            let sameSection = SectionKey(old.sections[old.sectionIndex(ofOffset: from)].key)
                == SectionKey(new.sections[new.sectionIndex(ofOffset: to)].key)
            if rankBefore == rankAfter && sameSection { candidates = [] }
        }
        let moved = Set(candidates)

        change.deleted = departing.map { FetchedResultsChange.Row(id: $0.key, path: old.path(ofOffset: $0.value)) }
            .sorted { $0.path < $1.path }
        change.inserted = arriving.map { FetchedResultsChange.Row(id: $0.key, path: new.path(ofOffset: $0.value)) }
            .sorted { $0.path < $1.path }
        change.moved = moved.compactMap { id in
            guard let from = oldPositions[id], let to = newPositions[id] else { return nil }
            return FetchedResultsChange.Move(id: id, from: old.path(ofOffset: from), to: new.path(ofOffset: to))
        }.sorted { $0.to < $1.to }
        change.updated = staying.filter { !moved.contains($0) }.compactMap { id in
            newPositions[id].map { FetchedResultsChange.Row(id: id, path: new.path(ofOffset: $0)) }
        }.sorted { $0.path < $1.path }
        return change
    }
}

/// A section key compared as SQLite compares it: text byte for byte (Swift's `==` treats
/// canonically equivalent strings as equal; SQLite's BINARY collation does not).
struct SectionKey: Hashable {
    private let value: AttributeValue
    private let bytes: [UInt8]?

    init(_ value: AttributeValue) {
        self.value = value
        self.bytes = value.stringValue.map { Array($0.utf8) }
    }

    static func == (lhs: SectionKey, rhs: SectionKey) -> Bool {
        if let left = lhs.bytes, let right = rhs.bytes { return left == right }
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        if let bytes { hasher.combine(bytes) } else { hasher.combine(value) }
    }

    /// Whether two lists of sort values are identical in SQLite's eyes.
    static func identical(_ lhs: [AttributeValue], _ rhs: [AttributeValue]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { SectionKey($0) == SectionKey($1) }
    }
}
