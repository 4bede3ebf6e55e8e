/// Mutations of an ``ArraySource``: each applies one change and announces it through
/// ``ArraySource/changes`` before returning.
extension ArraySource {
    /// Inserts `element` at `path` (a row in `0...rowCount` of an existing section).
    ///
    /// In a sectioned source the element's key must be the section's key; use
    /// ``insert(_:)`` to let the source choose (and create) the section.
    public func insert(_ element: Element, at path: TableIndexPath) throws(TableSourceError) {
        try validateSection(path.section)
        let rowCount = sections[path.section].count
        guard (0...rowCount).contains(path.row) else { throw .rowOutOfRange(path, rowCount: rowCount) }
        try validateKey(of: element, for: path)
        sections[path.section].insert(makeEntry(element), at: path.row)
        changes.announce(.insert(path))
    }

    /// Inserts `element` at `row` of section 0 (the only section of an unsectioned source).
    public func insert(_ element: Element, at row: Int) throws(TableSourceError) {
        try insert(element, at: TableIndexPath(row: row))
    }

    /// Inserts `element` where it belongs: in its key's section (created if missing) at its
    /// sorted position when the source is sorted, else at the end. Returns where it went.
    @discardableResult
    public func insert(_ element: Element) -> TableIndexPath {
        let path = placement(of: element)
        sections[path.section].insert(makeEntry(element), at: path.row)
        changes.announce(.insert(path))
        return path
    }

    /// Removes and returns the element at `path`. A section of a sectioned source that
    /// loses its last row is deleted too (announced after the row).
    @discardableResult
    public func remove(at path: TableIndexPath) throws(TableSourceError) -> Element {
        try validateRow(path)
        let entry = sections[path.section].remove(at: path.row)
        changes.announce(.delete(path, id: identity(of: entry)))
        deleteSectionIfEmpty(path.section)
        return entry.element
    }

    /// Removes and returns the element at `row` of section 0.
    @discardableResult
    public func remove(at row: Int) throws(TableSourceError) -> Element {
        try remove(at: TableIndexPath(row: row))
    }

    /// Moves the element at `from` so that it ends at `to`, keeping its identity.
    ///
    /// In a sectioned source both paths must be in the same section (an element's section
    /// follows from its key; change the element with `update(at:with:)` instead).
    public func move(from: TableIndexPath, to: TableIndexPath) throws(TableSourceError) {
        try validateRow(from)
        try validateSection(to.section)
        if to.section != from.section, let sectionKey {
            let key = sectionKey(sections[from.section].elements[from.row])
            throw .sectionMismatch(to, elementKey: key, sectionKey: sections[to.section].key ?? "")
        }
        let rowCount = sections[to.section].count
        guard (0..<rowCount).contains(to.row) else { throw .rowOutOfRange(to, rowCount: rowCount) }
        guard from != to else { return }
        let entry = sections[from.section].remove(at: from.row)
        sections[to.section].insert(entry, at: to.row)
        changes.announce(.move(from: from, to: to))
    }

    /// Moves the element at `from` to `to` within section 0.
    public func move(from: Int, to: Int) throws(TableSourceError) {
        try move(from: TableIndexPath(row: from), to: TableIndexPath(row: to))
    }

    /// Replaces the element at `path` with `element`.
    ///
    /// Announced as `.update` when identity and section stay; as a move plus an update when
    /// only the section key changed (the row goes to its new section, keeping its identity
    /// and so its selection); as a deletion and an insertion when the identity changed.
    public func update(at path: TableIndexPath, with element: Element) throws(TableSourceError) {
        try validateRow(path)
        let old = sections[path.section].entry(at: path.row)
        let sameIdentity = identify.map { $0(old.element) == $0(element) } ?? true
        let sameSection = sectionKey.map { $0(old.element) == $0(element) } ?? true
        switch (sameIdentity, sameSection) {
        case (true, true):
            sections[path.section].replaceElement(at: path.row, with: element)
            changes.announce(.update(path))
        case (true, false):
            relocate(from: path, as: Entry(element: element, serial: old.serial))
        case (false, _):
            try remove(at: path)
            if sameSection, path.section < sections.count, sections[path.section].key == sectionKey?(element) {
                try insert(element, at: path)
            } else {
                insert(element)
            }
        }
    }

    /// Replaces the element at `row` of section 0.
    public func update(at row: Int, with element: Element) throws(TableSourceError) {
        try update(at: TableIndexPath(row: row), with: element)
    }

    /// Replaces every element, announced as `.reload`.
    public func replace(all elements: [Element]) {
        load(elements)
        changes.announce(.reload)
    }

    // MARK: - Helpers

    /// Where ``insert(_:)`` puts `element`; creates (and announces) its section if missing.
    private func placement(of element: Element) -> TableIndexPath {
        let key = sectionKey?(element)
        let section: Int
        if let existing = sections.firstIndex(where: { $0.key == key }) {
            section = existing
        } else {
            section = newSectionIndex(for: element)
            sections.insert(Section(key: key, elements: [], serials: []), at: section)
            changes.announce(.insertSection(section))
        }
        return TableIndexPath(section: section, row: sortedRow(of: element, in: section))
    }

    /// A new section goes before the first section whose first element sorts after `element`
    /// (sorted sources) or after the last section.
    private func newSectionIndex(for element: Element) -> Int {
        guard let before = areInIncreasingOrder else { return sections.count }
        return sections.firstIndex { $0.count > 0 && before(element, $0.elements[0]) } ?? sections.count
    }

    /// The row after every element that does not sort after `element` (binary search), or
    /// the end of an unsorted section.
    private func sortedRow(of element: Element, in section: Int) -> Int {
        let elements = sections[section].elements
        guard let before = areInIncreasingOrder else { return elements.count }
        var low = 0
        var high = elements.count
        while low < high {
            let mid = (low + high) / 2
            if before(element, elements[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Moves `entry` (the updated row at `path`) to the section of its new key.
    private func relocate(from path: TableIndexPath, as entry: Entry) {
        var source = path
        let destination = placement(of: entry.element)
        if destination.section <= source.section, sections[destination.section].count == 0 {
            source.section += 1
        }
        _ = sections[source.section].remove(at: source.row)
        sections[destination.section].insert(entry, at: destination.row)
        changes.announce(.move(from: source, to: destination))
        changes.announce(.update(destination))
        deleteSectionIfEmpty(source.section)
    }

    private func deleteSectionIfEmpty(_ section: Int) {
        guard sectionKey != nil, sections[section].count == 0 else { return }
        sections.remove(at: section)
        changes.announce(.deleteSection(section, removedIDs: []))
    }

    private func validateSection(_ section: Int) throws(TableSourceError) {
        guard sections.indices.contains(section) else {
            throw .sectionOutOfRange(section: section, sectionCount: sections.count)
        }
    }

    private func validateRow(_ path: TableIndexPath) throws(TableSourceError) {
        try validateSection(path.section)
        let rowCount = sections[path.section].count
        guard (0..<rowCount).contains(path.row) else { throw .rowOutOfRange(path, rowCount: rowCount) }
    }

    private func validateKey(of element: Element, for path: TableIndexPath) throws(TableSourceError) {
        guard let sectionKey, let key = sections[path.section].key else { return }
        let elementKey = sectionKey(element)
        guard elementKey == key else {
            throw .sectionMismatch(path, elementKey: elementKey, sectionKey: key)
        }
    }
}
