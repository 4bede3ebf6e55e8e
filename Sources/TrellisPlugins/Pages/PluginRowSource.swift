import TrellisCore

/// One row of a plugin's table page: its columns once the plugin has sent them, nil before.
public struct PluginRow: Sendable, Equatable, CustomStringConvertible {
    public let columns: [String]?
    public var description: String { columns?.joined(separator: " | ") ?? "…" }
}

/// The rows of a plugin's table page (a ``TableSource``): a row count, with each row's columns
/// fetched from the plugin by range the first time a front end reads it, and the plugin's
/// live changes (insert, remove, update, move ranges) applied and announced row by row.
///
/// Rows keep their identity across the plugin's changes (each gets a serial number when it
/// enters), and fetched columns are kept by identity, so an insertion above a row does not
/// fetch it again. A reply that answers a request sent before a change that moved rows is
/// dropped, and the rows it covered are fetched again when next read.
@MainActor
final class PluginRowSource: TableSource {
    /// How many rows one request asks for.
    static let blockSize = 100
    /// The most rows a plugin's table may have.
    static let maximumCount = 10_000_000

    let changes = TableChangeObservers()
    /// Asks the plugin for rows `start..<start+count` (the page sends `<plugin>:page:fetch`).
    var fetch: (_ start: Int, _ count: Int) -> Void = { _, _ in }

    private var identities: [Int]
    private var nextIdentity: Int
    private var columns: [Int: [String]] = [:]
    /// Requests sent and not answered, by first row: the structure version each was sent in,
    /// oldest first (the plugin answers in order).
    private var pending: [Int: [Int]] = [:]
    /// Raised by every change that inserts, removes or moves rows.
    private var structureVersion = 0

    init(count: Int) {
        identities = Array(0..<count)
        nextIdentity = count
    }

    var count: Int { identities.count }
    var numberOfSections: Int { 1 }
    func numberOfRows(inSection section: Int) -> Int { identities.count }
    func title(forSection section: Int) -> String? { nil }

    func item(at path: TableIndexPath) -> TableItem {
        let identity = identities[path.row]
        let row = columns[identity]
        if row == nil { request(containing: path.row) }
        return TableItem(id: TableItemID(identity), value: PluginRow(columns: row))
    }

    func indexPath(of id: TableItemID) -> TableIndexPath? {
        guard let identity = id.intValue, let row = identities.firstIndex(of: identity) else { return nil }
        return TableIndexPath(row: row)
    }

    /// The row index of item `id` now.
    func row(of id: TableItemID) -> Int? { indexPath(of: id)?.row }

    private func request(containing row: Int) {
        let start = row - row % Self.blockSize
        guard pending[start]?.last != structureVersion else { return }
        pending[start, default: []].append(structureVersion)
        fetch(start, min(Self.blockSize, identities.count - start))
    }

    /// Stores the plugin's answer to a fetch of rows from `start` and announces the rows it
    /// filled as updated. Throws when the answer is not one the page asked for or its rows
    /// are malformed; a stale answer (the rows moved since) is dropped.
    func receive(start: Int, rows: [JSONValue]) throws(PluginPageError) {
        guard var versions = pending[start], !versions.isEmpty else {
            throw .malformed("rows from \(start) were not asked for")
        }
        let sentIn = versions.removeFirst()
        pending[start] = versions.isEmpty ? nil : versions
        let expected = min(Self.blockSize, max(0, identities.count - start))
        guard sentIn == structureVersion else {
            // Stale: have the front end read the rows still missing again, which asks anew.
            for row in start..<(start + expected) where columns[identities[row]] == nil {
                changes.announce(.update(TableIndexPath(row: row)))
            }
            return
        }
        guard rows.count == expected else {
            throw .malformed("it sent \(rows.count) rows from row \(start), not \(expected) (the table has \(identities.count))")
        }
        var filled: [Int] = []
        for (offset, json) in rows.enumerated() {
            let texts = try Self.columns(of: json, row: start + offset)
            let identity = identities[start + offset]
            if columns[identity] != texts {
                columns[identity] = texts
                filled.append(start + offset)
            }
        }
        for row in filled { changes.announce(.update(TableIndexPath(row: row))) }
    }

    /// Applies one change the plugin announced and announces it row by row.
    func apply(_ change: PluginTableChange) throws(PluginPageError) {
        let count = identities.count
        switch change {
        case .insert(let start, let length):
            guard start >= 0, start <= count, length >= 0, count + length <= Self.maximumCount else {
                throw .malformed("insert of \(length) rows at \(start) in a table of \(count)")
            }
            structureVersion += 1
            for offset in 0..<length {
                identities.insert(nextIdentity, at: start + offset)
                nextIdentity += 1
                changes.announce(.insert(TableIndexPath(row: start + offset)))
            }
        case .remove(let start, let length):
            guard start >= 0, length >= 0, start + length <= count else {
                throw .malformed("remove of \(length) rows at \(start) in a table of \(count)")
            }
            structureVersion += 1
            for _ in 0..<length {
                let identity = identities.remove(at: start)
                columns[identity] = nil
                changes.announce(.delete(TableIndexPath(row: start), id: TableItemID(identity)))
            }
        case .update(let start, let length):
            guard start >= 0, length >= 0, start + length <= count else {
                throw .malformed("update of \(length) rows at \(start) in a table of \(count)")
            }
            for row in start..<(start + length) {
                columns[identities[row]] = nil
                changes.announce(.update(TableIndexPath(row: row)))
            }
        case .move(let from, let to):
            guard (0..<count).contains(from), (0..<count).contains(to) else {
                throw .malformed("move from \(from) to \(to) in a table of \(count)")
            }
            guard from != to else { return }
            structureVersion += 1
            identities.insert(identities.remove(at: from), at: to)
            changes.announce(.move(from: TableIndexPath(row: from), to: TableIndexPath(row: to)))
        }
    }

    /// A row as the plugin sends it: a string (one column) or an array of strings.
    private static func columns(of json: JSONValue, row: Int) throws(PluginPageError) -> [String] {
        if let text = json.stringValue { return [text] }
        if let array = json.arrayValue {
            var texts: [String] = []
            for element in array {
                guard let text = element.stringValue else { throw .malformed("row \(row) has a column that is not a string") }
                texts.append(text)
            }
            return texts
        }
        throw .malformed("row \(row) is neither a string nor an array of strings")
    }
}
