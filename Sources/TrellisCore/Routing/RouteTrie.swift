/// A node of the trie (prefix tree) that ``RouteTable`` matches paths with.
///
/// ## Shape
/// Each node stands for a sequence of pattern segments, the root for none. A node has up
/// to three kinds of children, one for each kind of segment that can come next:
/// - `literals`, a dictionary from decoded literal text to child, so that choosing among
///   thousands of literals costs one hash lookup;
/// - one `parameter` child, shared by every pattern with a `:name` at this position (the
///   names live in each route's pattern, so `/a/:x/b` and `/a/:y/c` coexist);
/// - one `splat` child, a leaf shared by every pattern with a `*name` here.
///
/// A pattern's routes hang on the node its last segment leads to, in registration order.
/// Patterns with the same segment kinds and literals (`/a/:x` and `/a/:y`, or the same text
/// twice) end on the same node; the first registered one wins and the others wait behind
/// it, taking over when it is removed.
///
/// ## Matching: depth-first search with backtracking
/// `find` walks the decoded path segments from the left. At segment *i* of the path, at
/// node *n*, it tries, in this order:
/// 1. the literal child keyed by segment *i*, recursively with segment *i + 1*;
/// 2. the parameter child, recursively with segment *i + 1*;
/// 3. the splat child, which takes segments *i…* (at least one) and ends the search.
///
/// When all segments are consumed, the node's first route is the match; a node without
/// routes makes the search back up and try the next kind of child one level up. The first
/// route found is therefore the one that, comparing segment by segment from the left,
/// prefers a literal to a parameter and a parameter to a splat. With `/a/:x/c` and
/// `/a/b/d` registered, `/a/b/c` first follows the literal `b`, finds no `c` below it,
/// backs up and matches `/a/:x/c`.
///
/// Every node sits at a fixed depth and is entered only with the path segment at that
/// depth, so one match visits each node at most once: the cost is bounded by the size of
/// the trie, and in practice is one dictionary lookup per path segment.
final class RouteTrieNode<Target: Sendable> {
    private var literals: [String: RouteTrieNode] = [:]
    private var parameter: RouteTrieNode?
    private var splat: RouteTrieNode?
    /// Routes whose pattern ends at this node, in registration order; the first one wins.
    private var routes: [RouteEntry<Target>] = []

    private var isEmpty: Bool {
        routes.isEmpty && literals.isEmpty && parameter == nil && splat == nil
    }

    /// The route that matches the decoded `path` segments from `index` on, below this node.
    func find(_ path: Span<String>, from index: Int) -> RouteEntry<Target>? {
        guard index < path.count else { return routes.first }
        if let child = literals[path[index]], let found = child.find(path, from: index + 1) {
            return found
        }
        if let child = parameter, let found = child.find(path, from: index + 1) {
            return found
        }
        return splat?.routes.first
    }

    /// Adds `entry` along its pattern's segments, creating the nodes it needs.
    /// - Returns: the route that already ended on the same node and still wins over `entry`.
    func insert(_ entry: RouteEntry<Target>) -> RouteEntry<Target>? {
        var node = self
        for segment in entry.pattern.segments {
            node = node.child(for: segment)
        }
        let winner = node.routes.first
        node.routes.append(entry)
        return winner
    }

    /// Removes the route `id` that was inserted along `segments` below this node, and prunes
    /// the nodes that are left with neither routes nor children.
    /// - Returns: whether the route was found.
    @discardableResult
    func remove(_ id: RouteID, along segments: ArraySlice<RouteSegment>) -> Bool {
        guard let segment = segments.first else {
            guard let index = routes.firstIndex(where: { $0.id == id }) else { return false }
            routes.remove(at: index)
            return true
        }
        let rest = segments.dropFirst()
        switch segment {
        case .literal(let text):
            guard let child = literals[text], child.remove(id, along: rest) else { return false }
            if child.isEmpty { literals[text] = nil }
        case .parameter:
            guard let child = parameter, child.remove(id, along: rest) else { return false }
            if child.isEmpty { parameter = nil }
        case .splat:
            guard let child = splat, child.remove(id, along: rest) else { return false }
            if child.isEmpty { splat = nil }
        }
        return true
    }

    private func child(for segment: RouteSegment) -> RouteTrieNode {
        switch segment {
        case .literal(let text):
            if let child = literals[text] { return child }
            let child = RouteTrieNode()
            literals[text] = child
            return child
        case .parameter:
            if let child = parameter { return child }
            let child = RouteTrieNode()
            parameter = child
            return child
        case .splat:
            if let child = splat { return child }
            let child = RouteTrieNode()
            splat = child
            return child
        }
    }
}
