/// A source that can hand over its rows as plain strings when that is what it holds (an
/// ``ArraySource`` of strings): the first search of a million rows then folds them as they
/// are, without making a ``TableItem`` of each.
@MainActor
protocol StringRowsSource {
    /// The rows `rows` of `section` when they are strings; `nil` when they are something else.
    func strings(inSection section: Int, rows: Range<Int>) -> [String]?
}

/// A cell provider that can say whether a row whose value is a string is searched as that
/// string (``DescriptionCellProvider`` does, and so does a selection around it).
@MainActor
protocol StringShowingCellProvider {
    /// Whether ``CellProvider/searchText(for:)`` of a string item is the string itself.
    var showsStringsAsThemselves: Bool { get }
}

extension DescriptionCellProvider: StringShowingCellProvider {
    var showsStringsAsThemselves: Bool { true }
}

extension SelectionCellProvider: StringShowingCellProvider {
    var showsStringsAsThemselves: Bool {
        (wrapped as? any StringShowingCellProvider)?.showsStringsAsThemselves == true
    }
}
