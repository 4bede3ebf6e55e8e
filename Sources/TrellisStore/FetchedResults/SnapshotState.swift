import Foundation
import GRDB
import TrellisCore

/// Fetched results as one database snapshot sees them: the snapshot itself, the commit
/// sequence it reflects, and the sections with their row counts. `Sendable`: built and
/// compared on the fetched results' worker queue, read on the main actor.
struct SnapshotState: Sendable {
    let snapshot: DatabaseSnapshot
    let sequence: Int
    let fetch: CompiledFetch
    let isSectioned: Bool
    let sections: [FetchedSection]

    var count: Int { sections.last.map { $0.offset + $0.count } ?? 0 }

    /// Opens a snapshot of the latest committed state and counts its sections.
    static func load(from store: PersistentStore, fetch: CompiledFetch, isSectioned: Bool) throws -> SnapshotState {
        let snapshot = try openSnapshot(of: store, fetch: fetch)
        return try load(snapshot, fetch: fetch, isSectioned: isSectioned)
    }

    /// A new snapshot of the latest committed state.
    static func openSnapshot(of store: PersistentStore, fetch: CompiledFetch) throws -> DatabaseSnapshot {
        try mappingStoreErrors(path: store.path, operation: "fetch \(fetch.entity.name) results") {
            try store.pool.makeSnapshot()
        }
    }

    /// The commit sequence a snapshot reflects.
    static func sequence(of snapshot: DatabaseSnapshot) throws -> Int {
        try mappingStoreErrors(path: snapshot.path, operation: "read commit sequence") {
            try snapshot.read { db in try StoreMetadata.commitSequence(in: db) }
        }
    }

    /// Counts the sections of the results in `snapshot`.
    static func load(_ snapshot: DatabaseSnapshot, fetch: CompiledFetch, isSectioned: Bool) throws -> SnapshotState {
        try mappingStoreErrors(path: snapshot.path, operation: "fetch \(fetch.entity.name) results") {
            let (sequence, sections) = try snapshot.read { db in
                (try StoreMetadata.commitSequence(in: db), try countSections(db, fetch: fetch, isSectioned: isSectioned))
            }
            return SnapshotState(snapshot: snapshot, sequence: sequence, fetch: fetch, isSectioned: isSectioned,
                                 sections: sections)
        }
    }

    /// A state of `snapshot` whose sections were worked out from a diff instead of counted.
    func advanced(to snapshot: DatabaseSnapshot, sequence: Int, sections: [FetchedSection]) -> SnapshotState {
        SnapshotState(snapshot: snapshot, sequence: sequence, fetch: fetch, isSectioned: isSectioned, sections: sections)
    }

    private static func countSections(_ db: Database, fetch: CompiledFetch, isSectioned: Bool) throws -> [FetchedSection] {
        guard isSectioned, let key = fetch.order.first else {
            let statement = try RawStatement(db, sql: fetch.countSQL)
            try statement.bind(fetch.arguments)
            let count = try statement.step() ? statement.int(0) : 0
            statement.reset()
            return [FetchedSection(key: .null, count: count, offset: 0)]
        }
        let column = SchemaSQL.quote(key.name)
        let statement = try RawStatement(db, sql: "SELECT \(column), count(*) FROM \(SchemaSQL.quote(fetch.entity.name))"
            + " WHERE \(fetch.condition) GROUP BY \(column) ORDER BY \(column) \(key.ascending ? "ASC" : "DESC")")
        try statement.bind(fetch.arguments)
        var sections: [FetchedSection] = []
        var offset = 0
        while try statement.step() {
            let value = statement.value(0, as: key.type) ?? .null
            let count = statement.int(1)
            sections.append(FetchedSection(key: value, count: count, offset: offset))
            offset += count
        }
        return sections
    }

    /// The section holding the row at global position `offset`.
    func sectionIndex(ofOffset offset: Int) -> Int {
        var low = 0
        var high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The index path of the row at global position `offset`.
    func path(ofOffset offset: Int) -> TableIndexPath {
        let section = sectionIndex(ofOffset: offset)
        return TableIndexPath(section: section, row: offset - sections[section].offset)
    }

    /// The global position of the row at `path`.
    func offset(of path: TableIndexPath) -> Int { sections[path.section].offset + path.row }
}
