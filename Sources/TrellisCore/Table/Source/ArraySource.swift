/// A table source over an array or a set, optionally in sections by a key
/// (the seeds' `JLSetArrayController`).
///
/// ```swift
/// // Plain strings, duplicates allowed: identities are serial numbers (see below).
/// let genres = ArraySource(["Фэнтези", "Киберпанк", "Фэнтези"])
/// try genres.insert("Мистика", at: 1)            // announces .insert(0/1)
///
/// // Records with their own identity, in sections by first letter.
/// let people = ArraySource(persons, id: \.id, sectionedBy: { String($0.lastName.prefix(1)) })
///
/// // A set, sorted by a key: each element is its own identity.
/// let tags = ArraySource(Set(["b", "a"]), sortedBy: { $0 })
/// ```
///
/// ## Identity
/// Selection follows identities, so they must not change when other rows move.
/// - Without an `id`, every element gets a serial number when it enters the source: the
///   elements given at construction are numbered by position (0, 1, 2…), later ones
///   continue the count. The number stays with the element through inserts, deletes, moves
///   and updates of any row, so equal elements (the catalog has duplicate genre names) are
///   still told apart. The trade-off: an identity means "this entry of this source", so
///   `replace(all:)` gives every element a new one and clears a selection.
/// - With an `id`, identities come from the elements and survive `replace(all:)`; they
///   should be unique (equal identities select together).
///
/// ## Sections
/// With `sectionedBy`, each distinct key is a section titled by it, in the order the keys
/// first occur (for a set: in sorted order). A section exists while it has rows.
/// Without it there is one untitled section, which may be empty.
///
/// ## Cost
/// Rows are kept in chunks, so an insertion or deletion anywhere in a million rows costs
/// microseconds; reading a row is a binary search over the chunks.
@MainActor
public final class ArraySource<Element>: TableSource, StringRowsSource {
    /// An element with the serial number it got on entering the source.
    struct Entry {
        var element: Element
        let serial: Int
    }

    /// The rows of one section: elements and their serial numbers, kept in step in two
    /// chunked storages (so building one from an array copies it in bulk).
    struct Section {
        let key: String?
        private(set) var elements: ChunkedStorage<Element>
        private(set) var serials: ChunkedStorage<Int>

        init(key: String?, elements: [Element], serials: [Int]) {
            self.init(key: key, elements: ChunkedStorage(elements), serials: ChunkedStorage(serials))
        }

        init(key: String?, elements: ChunkedStorage<Element>, serials: ChunkedStorage<Int>) {
            self.key = key
            self.elements = elements
            self.serials = serials
        }

        var count: Int { elements.count }

        func entry(at row: Int) -> Entry {
            Entry(element: elements[row], serial: serials[row])
        }

        mutating func insert(_ entry: Entry, at row: Int) {
            elements.insert(entry.element, at: row)
            serials.insert(entry.serial, at: row)
        }

        mutating func remove(at row: Int) -> Entry {
            Entry(element: elements.remove(at: row), serial: serials.remove(at: row))
        }

        mutating func replaceElement(at row: Int, with element: Element) {
            elements[row] = element
        }

        /// The elements, leaving none (the serials stay): a sort moves them out and back.
        mutating func removeAllElements() -> ChunkedStorage<Element> {
            defer { elements = ChunkedStorage() }
            return elements
        }
    }

    var sections: [Section] = []
    var nextSerial = 0
    let identify: ((Element) -> TableItemID)?
    let sectionKey: ((Element) -> String)?
    /// The order of the rows: the set's key, or the column last sorted by; `nil` keeps insertion order.
    var areInIncreasingOrder: ((Element, Element) -> Bool)?

    /// Announces every mutation, after applying it.
    public let changes = TableChangeObservers()

    /// A source over `elements` in their order; identities are serial numbers.
    public convenience init(_ elements: [Element], sectionedBy sectionKey: ((Element) -> String)? = nil) {
        self.init(elements, identify: nil, sectionKey: sectionKey, order: nil)
    }

    /// A source over `elements` in their order; `id` gives each element's identity.
    public convenience init<ID: Hashable & Sendable>(
        _ elements: [Element],
        id: @escaping (Element) -> ID,
        sectionedBy sectionKey: ((Element) -> String)? = nil
    ) {
        self.init(elements, identify: { TableItemID(id($0)) }, sectionKey: sectionKey, order: nil)
    }

    init(
        _ elements: [Element],
        identify: ((Element) -> TableItemID)?,
        sectionKey: ((Element) -> String)?,
        order: ((Element, Element) -> Bool)?
    ) {
        self.identify = identify
        self.sectionKey = sectionKey
        self.areInIncreasingOrder = order
        load(elements)
    }

    // MARK: - TableSource

    public var numberOfSections: Int { sections.count }

    public func numberOfRows(inSection section: Int) -> Int {
        sections[section].count
    }

    public func item(at path: TableIndexPath) -> TableItem {
        let entry = sections[path.section].entry(at: path.row)
        return TableItem(id: identity(of: entry), value: entry.element)
    }

    public func title(forSection section: Int) -> String? {
        sections[section].key
    }

    /// The rows' items in one walk over the stored rows (what a search's first fold reads).
    public func forEachItem(inSection section: Int, rows: Range<Int>, _ body: (TableItem) -> Void) {
        var serials: [Int] = []
        serials.reserveCapacity(rows.count)
        sections[section].serials.forEach(in: rows) { serials.append($0) }
        var index = 0
        sections[section].elements.forEach(in: rows) { element in
            body(TableItem(id: identify?(element) ?? TableItemID(serials[index]), value: element))
            index += 1
        }
    }

    /// The rows of `section` in `rows` when the elements are strings, copied from their chunks
    /// at once; `nil` for any other element type.
    func strings(inSection section: Int, rows: Range<Int>) -> [String]? {
        // One cast of the storage: the rows are then strings without a cast of each.
        guard let strings = sections[section].elements as? ChunkedStorage<String> else { return nil }
        var result: [String] = []
        result.reserveCapacity(rows.count)
        strings.forEach(in: rows) { result.append($0) }
        return result
    }

    /// Finds `id` by scanning the rows (serial numbers or element identities): O(n).
    public func indexPath(of id: TableItemID) -> TableIndexPath? {
        for (index, section) in sections.enumerated() {
            let row: Int?
            if let identify {
                row = section.elements.firstIndex { identify($0) == id }
            } else if let serial = id.intValue {
                row = section.serials.firstIndex { $0 == serial }
            } else {
                row = nil
            }
            if let row { return TableIndexPath(section: index, row: row) }
        }
        return nil
    }

    // MARK: - Reading

    /// The element at `path`, which must be a valid path.
    public func element(at path: TableIndexPath) -> Element {
        sections[path.section].elements[path.row]
    }

    /// How many elements there are in all sections.
    public var count: Int { sections.reduce(0) { $0 + $1.count } }

    /// Every element, section after section.
    public var elements: [Element] { sections.flatMap { Array($0.elements) } }

    // MARK: - Internals shared with the mutations

    func identity(of entry: Entry) -> TableItemID {
        identify?(entry.element) ?? TableItemID(entry.serial)
    }

    func makeEntry(_ element: Element) -> Entry {
        defer { nextSerial += 1 }
        return Entry(element: element, serial: nextSerial)
    }

    /// Replaces the contents with `elements`, sorted and sectioned as configured; the
    /// elements get the next serial numbers in order.
    func load(_ elements: [Element]) {
        let ordered = areInIncreasingOrder.map { elements.sorted(by: $0) } ?? elements
        let first = nextSerial
        nextSerial += ordered.count
        guard let sectionKey else {
            sections = [Section(key: nil, elements: ordered, serials: Array(first..<nextSerial))]
            return
        }
        var keys: [String] = []
        var buckets: [String: (elements: [Element], serials: [Int])] = [:]
        for index in ordered.indices {
            let key = sectionKey(ordered[index])
            if buckets[key] == nil { keys.append(key) }
            buckets[key, default: ([], [])].elements.append(ordered[index])
            buckets[key, default: ([], [])].serials.append(first + index)
        }
        sections = keys.map { key in
            Section(key: key, elements: buckets[key]?.elements ?? [], serials: buckets[key]?.serials ?? [])
        }
    }
}

extension ArraySource where Element: Hashable & Sendable {
    /// A source over the elements of `set`, sorted by `key`; each element is its own identity.
    public convenience init<Key: Comparable>(
        _ set: Set<Element>,
        sortedBy key: @escaping (Element) -> Key,
        sectionedBy sectionKey: ((Element) -> String)? = nil
    ) {
        self.init(
            Array(set),
            identify: { TableItemID($0) },
            sectionKey: sectionKey,
            order: { key($0) < key($1) }
        )
    }
}
