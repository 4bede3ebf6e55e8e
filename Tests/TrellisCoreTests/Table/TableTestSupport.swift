import Foundation
import TrellisCore

/// The demo's genre catalog, read from the repository's `data/` folder.
enum CatalogFixture {
    static let genres: [String] = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Table
            .deletingLastPathComponent()  // TrellisCoreTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // repository
        let url = root.appendingPathComponent("data/catalog-genres.ru.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }()
}

/// Records the flat changes a container announces, batch by batch.
@MainActor
final class FlatRecorder {
    private(set) var batches: [[FlatChange]] = []
    private var token: ObservationToken?

    init(_ container: TableContainer) {
        token = container.onFlatChanges { [weak self] in self?.batches.append($0) }
    }

    var changes: [FlatChange] { batches.flatMap { $0 } }

    func reset() { batches = [] }
}

/// Records the changes a source announces.
@MainActor
final class SourceRecorder {
    private(set) var changes: [TableChange] = []
    private var token: ObservationToken?

    init(_ source: any TableSource) {
        token = source.changes.observe { [weak self] in self?.changes.append($0) }
    }
}

/// A fixed source with sections whose titles may be `nil`, to test the container against
/// the protocol rather than ``ArraySource``.
@MainActor
final class StaticSource: TableSource {
    var sections: [(title: String?, rows: [String])]
    let changes = TableChangeObservers()

    init(_ sections: [(title: String?, rows: [String])]) {
        self.sections = sections
    }

    var numberOfSections: Int { sections.count }
    func numberOfRows(inSection section: Int) -> Int { sections[section].rows.count }
    func title(forSection section: Int) -> String? { sections[section].title }
    func item(at path: TableIndexPath) -> TableItem {
        TableItem(id: TableItemID(sections[path.section].rows[path.row]), value: sections[path.section].rows[path.row])
    }
}

extension TableContainer {
    /// Every shown row as text: `# Title` for a header, the cell text for an item (with
    /// `*` after a selected one).
    func texts() -> [String] {
        (0..<flatCount).map(text(at:))
    }

    /// The shown row at `index` as text (see ``texts()``).
    func text(at index: Int) -> String {
        switch flatRow(at: index) {
        case .header(let title, _): return "# \(title)"
        case .item(_, let cell): return cell.text + (cell.isSelected ? " *" : "")
        case nil: return "<nil>"
        }
    }
}
