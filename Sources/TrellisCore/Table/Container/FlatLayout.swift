/// How a container's sections and rows map to flat indexes: each section contributes a
/// header row (when it is titled and shows at least one row) followed by its shown rows.
///
/// The start of every section is kept as a running total, so a flat index maps to its row
/// by a binary search over the sections (O(log sections)) and a change in one section
/// updates the totals of the sections after it (O(sections)). A section that shows every row
/// (no filter, or a filter every row passes) maps its rows to themselves, with nothing stored
/// per row; otherwise it keeps the ascending list of its shown rows.
struct FlatLayout {
    struct Section {
        var title: String?
        var rowCount: Int
        /// The shown rows, ascending; `nil` when every row is shown.
        var visibleRows: [Int]?

        var visibleCount: Int { visibleRows?.count ?? rowCount }
        var hasHeader: Bool { title != nil && visibleCount > 0 }
        var span: Int { visibleCount + (hasHeader ? 1 : 0) }

        /// Whether `other` shows the same title and rows (every row, listed or not, is the same
        /// rows: an ascending list of `rowCount` distinct rows is all of them).
        func showsSameRows(as other: Section) -> Bool {
            guard title == other.title, rowCount == other.rowCount else { return false }
            switch (visibleRows, other.visibleRows) {
            case (nil, nil): return true
            case (let rows?, nil), (nil, let rows?): return rows.count == rowCount
            case (let rows?, let others?): return rows == others
            }
        }
    }

    /// What is at a flat index.
    enum Position: Equatable {
        case header(section: Int)
        case row(TableIndexPath)
    }

    private(set) var sections: [Section]
    /// `starts[s]` is the flat index where section `s` begins; `starts[sections.count]` is the count.
    private var starts: [Int]

    init(sections: [Section]) {
        self.sections = sections
        var starts = [0]
        starts.reserveCapacity(sections.count + 1)
        for section in sections { starts.append(starts[starts.count - 1] + section.span) }
        self.starts = starts
    }

    /// How many flat rows there are.
    var count: Int { starts[sections.count] }

    var rowCounts: [Int] { sections.map(\.rowCount) }

    /// What is at `flatIndex`, or `nil` when it is out of range.
    func position(at flatIndex: Int) -> Position? {
        guard flatIndex >= 0, flatIndex < count else { return nil }
        var low = 0
        var high = sections.count - 1
        while low < high {
            let mid = (low + high) / 2
            if starts[mid + 1] > flatIndex { high = mid } else { low = mid + 1 }
        }
        let section = sections[low]
        var offset = flatIndex - starts[low]
        if section.hasHeader {
            if offset == 0 { return .header(section: low) }
            offset -= 1
        }
        return .row(TableIndexPath(section: low, row: section.visibleRows?[offset] ?? offset))
    }

    /// The flat index of the row at `path`, or `nil` when it is not shown.
    func flatIndex(of path: TableIndexPath) -> Int? {
        guard sections.indices.contains(path.section) else { return nil }
        let section = sections[path.section]
        guard (0..<section.rowCount).contains(path.row) else { return nil }
        var offset = path.row
        if let visible = section.visibleRows {
            offset = Self.lowerBound(of: path.row, in: visible)
            guard offset < visible.count, visible[offset] == path.row else { return nil }
        }
        return starts[path.section] + (section.hasHeader ? 1 : 0) + offset
    }

    // MARK: - Row and section changes

    /// A row was inserted at `path`; `isVisible` tells whether the filter shows it.
    mutating func insertRow(at path: TableIndexPath, isVisible: Bool) -> FlatChange? {
        let s = path.section
        if !isVisible { listEveryRow(of: s) }
        let oldSpan = sections[s].span
        let headerBefore = sections[s].hasHeader
        sections[s].rowCount += 1
        var offset = path.row
        if var visible = sections[s].visibleRows.take() {
            offset = Self.lowerBound(of: path.row, in: visible)
            for i in offset..<visible.count { visible[i] += 1 }
            if isVisible { visible.insert(path.row, at: offset) }
            sections[s].visibleRows = visible
            guard isVisible else { return nil }
        }
        shiftStarts(after: s, by: sections[s].span - oldSpan)
        return shown(section: s, offset: offset, headerBefore: headerBefore)
    }

    /// The row at `path` was deleted.
    mutating func deleteRow(at path: TableIndexPath) -> FlatChange? {
        let s = path.section
        let oldSpan = sections[s].span
        let headerBefore = sections[s].hasHeader
        sections[s].rowCount -= 1
        var offset = path.row
        if var visible = sections[s].visibleRows.take() {
            offset = Self.lowerBound(of: path.row, in: visible)
            let wasVisible = offset < visible.count && visible[offset] == path.row
            if wasVisible { visible.remove(at: offset) }
            for i in offset..<visible.count { visible[i] -= 1 }
            sections[s].visibleRows = visible
            guard wasVisible else { return nil }
        }
        shiftStarts(after: s, by: sections[s].span - oldSpan)
        return hidden(section: s, offset: offset, headerBefore: headerBefore)
    }

    /// The row at `path` changed; `isVisible` tells whether the filter shows it now.
    mutating func updateRow(at path: TableIndexPath, isVisible: Bool) -> FlatChange? {
        let s = path.section
        if !isVisible { listEveryRow(of: s) }
        guard var visible = sections[s].visibleRows.take() else {
            return FlatChange(position: starts[s] + (sections[s].hasHeader ? 1 : 0) + path.row, removed: 1, added: 1)
        }
        let headerBefore = sections[s].title != nil && !visible.isEmpty
        let oldSpan = visible.count + (headerBefore ? 1 : 0)
        let offset = Self.lowerBound(of: path.row, in: visible)
        let wasVisible = offset < visible.count && visible[offset] == path.row
        switch (wasVisible, isVisible) {
        case (true, true):
            sections[s].visibleRows = visible
            return FlatChange(position: starts[s] + (headerBefore ? 1 : 0) + offset, removed: 1, added: 1)
        case (false, false):
            sections[s].visibleRows = visible
            return nil
        case (false, true):
            visible.insert(path.row, at: offset)
            sections[s].visibleRows = visible
            shiftStarts(after: s, by: sections[s].span - oldSpan)
            return shown(section: s, offset: offset, headerBefore: headerBefore)
        case (true, false):
            visible.remove(at: offset)
            sections[s].visibleRows = visible
            shiftStarts(after: s, by: sections[s].span - oldSpan)
            return hidden(section: s, offset: offset, headerBefore: headerBefore)
        }
    }

    /// `section` was inserted at `index`.
    mutating func insertSection(_ section: Section, at index: Int) -> FlatChange? {
        sections.insert(section, at: index)
        starts.insert(starts[index], at: index)
        shiftStarts(after: index, by: section.span)
        return section.span > 0 ? FlatChange(position: starts[index], removed: 0, added: section.span) : nil
    }

    /// The section at `index` was deleted.
    mutating func deleteSection(at index: Int) -> FlatChange? {
        let span = sections[index].span
        let start = starts[index]
        sections.remove(at: index)
        starts.remove(at: index)
        for i in index..<starts.count { starts[i] -= span }
        return span > 0 ? FlatChange(position: start, removed: span, added: 0) : nil
    }

    // MARK: - Helpers

    /// Lists the shown rows of section `s` when it shows every row without a list, before a
    /// row of it is hidden.
    private mutating func listEveryRow(of s: Int) {
        if sections[s].visibleRows == nil { sections[s].visibleRows = Array(0..<sections[s].rowCount) }
    }

    /// The change for a row that became shown at `offset` among its section's shown rows.
    private func shown(section s: Int, offset: Int, headerBefore: Bool) -> FlatChange {
        if !headerBefore && sections[s].hasHeader {
            return FlatChange(position: starts[s], removed: 0, added: 2)
        }
        return FlatChange(position: starts[s] + (headerBefore ? 1 : 0) + offset, removed: 0, added: 1)
    }

    /// The change for a row that stopped being shown at `offset` among its section's shown rows.
    private func hidden(section s: Int, offset: Int, headerBefore: Bool) -> FlatChange {
        if headerBefore && !sections[s].hasHeader {
            return FlatChange(position: starts[s], removed: 2, added: 0)
        }
        return FlatChange(position: starts[s] + (headerBefore ? 1 : 0) + offset, removed: 1, added: 0)
    }

    private mutating func shiftStarts(after section: Int, by delta: Int) {
        guard delta != 0 else { return }
        for i in (section + 1)..<starts.count { starts[i] += delta }
    }

    /// The first index of `sorted` whose value is not below `value`.
    static func lowerBound(of value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension FlatLayout {
    /// The one change turning `old` into `new` (two layouts of the same source state, e.g.
    /// before and after a search): the rows between their common beginning and their
    /// common end; `nil` when they show the same rows.
    static func difference(from old: FlatLayout, to new: FlatLayout) -> FlatChange? {
        let shorter = min(old.count, new.count)
        var prefix = 0
        var suffix = 0
        // Sections showing the same rows in both are skipped whole: a keystroke that hides
        // no row of a million compares two lists, not a million positions.
        if old.sections.count == new.sections.count {
            let differing = old.sections.indices.filter { !old.sections[$0].showsSameRows(as: new.sections[$0]) }
            guard let first = differing.first, let last = differing.last else { return nil }
            prefix = old.starts[first]
            suffix = old.count - old.starts[last + 1]
        }
        while prefix < shorter - suffix, old.position(at: prefix) == new.position(at: prefix) { prefix += 1 }
        while suffix < shorter - prefix,
            old.position(at: old.count - 1 - suffix) == new.position(at: new.count - 1 - suffix)
        {
            suffix += 1
        }
        let removed = old.count - prefix - suffix
        let added = new.count - prefix - suffix
        guard removed > 0 || added > 0 else { return nil }
        return FlatChange(position: prefix, removed: removed, added: added)
    }
}
