import Foundation

/// Formats a route table for people (`trellis routes`): one line per route, in registration
/// order, with aligned columns.
public enum RouteListing {
    /// A table with a header line: pattern, target, owner, and `public` for public routes.
    public static func table(_ entries: [RouteEntry<RouteTarget>]) -> String {
        let rows = entries.map { [$0.pattern.text, $0.target.summary, $0.owner, $0.isPublic ? "public" : ""] }
        let header = ["PATTERN", "TARGET", "OWNER", "ACCESS"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
