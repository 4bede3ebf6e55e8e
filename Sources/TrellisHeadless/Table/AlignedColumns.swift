import TrellisCore

/// Records as a text table, the headless counterpart of a `GtkColumnView`: a header line
/// of the column titles (the sorted column marked ▲ or ▼), a rule, then one line per row
/// with every column as wide as its widest text. Numbers are right-aligned; a text longer
/// than ``maximumWidth`` is cut with "…".
///
/// ```
/// First name  Surname   Age ▲
/// ----------  --------  -----
/// Ada         Lovelace     36
/// Grace       Hopper       85
/// ```
struct AlignedColumns {
    /// The widest a column gets, in characters.
    static let maximumWidth = 40
    /// Between two columns.
    static let gap = "  "

    let headers: [String]
    let rows: [FlatRow]

    /// The table of `rows` under `columns`, marking `sort`'s column.
    init(columns: [TableColumn], sort: ColumnSort?, rows: [FlatRow]) {
        headers = columns.map { column in
            guard let sort, sort.key == column.key else { return column.title }
            return column.title + (sort.ascending ? " ▲" : " ▼")
        }
        self.rows = rows
    }

    /// The header, the rule and the rows.
    var lines: [String] {
        let cells = rows.map { row -> [String] in
            guard case .item(_, let cell) = row else { return [] }
            return headers.indices.map { cell.columns.indices.contains($0) ? Self.clipped(cell.columns[$0]) : "" }
        }
        let widths = headers.indices.map { column in
            cells.reduce(Self.clipped(headers[column]).count) { max($0, $1.isEmpty ? 0 : $1[column].count) }
        }
        let numeric = headers.indices.map { column in
            let texts = cells.compactMap { $0.isEmpty || $0[column].isEmpty ? nil : $0[column] }
            return !texts.isEmpty && texts.allSatisfy { Double($0) != nil }
        }
        // A checkbox column comes first when any row has one.
        let hasBoxes = rows.contains { row in
            guard case .item(_, let cell) = row else { return false }
            return cell.checkbox != nil
        }
        let boxWidth = hasBoxes ? 4 : 0
        func line(_ texts: [String], box: String) -> String {
            let padded = texts.indices.map { column in
                Self.pad(texts[column], to: widths[column], right: numeric[column])
            }
            let text = Self.pad(box, to: boxWidth, right: false) + padded.joined(separator: Self.gap)
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        var lines = [
            line(headers.map(Self.clipped), box: ""),
            line(widths.map { String(repeating: "-", count: $0) }, box: ""),
        ]
        for (row, texts) in zip(rows, cells) {
            switch row {
            case .header(let title, _):
                lines.append("== \(title) ==")
            case .item(_, let cell):
                let box = cell.checkbox.map { $0 ? "[x]" : "[ ]" } ?? ""
                let mark = cell.isSelected && cell.checkbox == nil ? " (selected)" : ""
                lines.append(line(texts, box: box) + mark)
            }
        }
        return lines
    }

    private static func clipped(_ text: String) -> String {
        let flat = text.contains("\n") ? text.split(separator: "\n").joined(separator: " ") : text
        guard flat.count > maximumWidth else { return flat }
        return flat.prefix(maximumWidth - 1) + "…"
    }

    private static func pad(_ text: String, to width: Int, right: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
