import Logging
import OrderedCollections


/// The route table: patterns registered by owners, matched against paths.
///
/// The matcher under iStructure's `$route`, `$routec`, `$navigate` and `$unroute`: the
/// navigator registers a target (a block, a controller type and action) per pattern and
/// asks the table which one a path leads to.
///
///     let routes = RouteTable<String>()
///     try routes.add("/notes", owner: "notes", target: "list")
///     try routes.add("/notes/:id", owner: "notes", target: "detail")
///     try routes.add("/notes/new", owner: "notes", target: "editor")
///     try routes.add("/files/*path", owner: "files", target: "browser")
///
///     try routes.match("/notes/new").target                  // "editor": a literal beats :id
///     try routes.match("/notes/42/").parameters              // ["id": "42"]
///     try routes.match("/files/docs/r%C3%A9sum%C3%A9.pdf").parameters["path"]  // "docs/résumé.pdf"
///     try routes.match("/notes/7?tab=history&id=9").parameters // ["id": "7", "tab": "history"]
///     routes.remove(owner: "files")                           // iStructure's $unroute
///     try routes.match("/files/a")                            // throws RouteError.notFound
///
/// ## Paths
/// - A path starts with "/" and is at most ``maximumPathLength`` UTF-8 bytes, query and
///   fragment included. `/` is the root.
/// - One trailing "/" is ignored: `/notes/` matches like `/notes`. Repeated slashes are an
///   error (`/notes//5` is ``RouteError/invalidPath(path:reason:)``), as an empty segment
///   usually comes from interpolating an empty string, and silently collapsing it could
///   reach another route.
/// - Segments are percent-decoded (UTF-8) before matching, so `/caf%C3%A9` and `/café`
///   are the same path and Cyrillic literals and values work either way. `%2F` decodes to
///   "/" inside a value but does not split segments: `/notes/a%2Fb` binds `id` to `a/b`.
/// - Invalid: a control character (raw, anywhere), `%00`, a "%" not followed by two hex
///   digits, an escape sequence that is not UTF-8, and "." or ".." segments (also as
///   `%2E%2E`): a path never walks up.
/// - After "?", the query is split at "&" into `key=value` pairs, "+" read as a space and
///   both sides percent-decoded; a key without "=" has the value ""; when a key repeats,
///   the last value wins. A "#fragment" is dropped.
///
/// ## Precedence
/// When several patterns match, the winner is decided segment by segment from the left:
/// a literal beats a parameter, which beats a splat. With backtracking: given `/a/:x/c`
/// and `/a/b/d`, the path `/a/b/c` matches `/a/:x/c` and `/a/b/d` matches `/a/b/d`. A
/// splat takes at least one segment: `/files/*path` does not match `/files` (register
/// `/files` too if you need it). Patterns that match exactly the same paths (the same
/// text twice, or `/a/:x` and `/a/:y`) are kept in registration order: the first one wins
/// and the later one is shadowed (a warning names both owners) until the first is removed.
/// The algorithm is a trie walked depth-first; see `RouteTrieNode`.
///
/// ## Threads
/// All methods may be called from any thread; a lock (`LockedState`) guards the trie and the entries.
/// Matching holds the lock only for the trie walk: decoding the path, binding the
/// parameters and parsing the query happen outside it.
public final class RouteTable<Target: Sendable>: Sendable {
    /// The longest path or pattern accepted, in UTF-8 bytes: 4096.
    public static var maximumPathLength: Int { PathSyntax.maximumLength }

    // The trie's nodes are classes, so State is not Sendable by itself; it lives only inside
    // `state` (a LockedState) and no node reference ever leaves a `withLock` body.
    private struct State: @unchecked Sendable {
        var root = RouteTrieNode<Target>()
        var entries: OrderedDictionary<RouteID, RouteEntry<Target>> = [:]
        var lastID: UInt64 = 0

        mutating func remove(_ id: RouteID) -> RouteEntry<Target>? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            root.remove(id, along: entry.pattern.segments[...])
            return entry
        }
    }

    private let state = LockedState(State())
    private let logger = Logger(trellis: "trellis.routing")

    /// Creates an empty table.
    public init() {}

    /// Parses `pattern` (see ``RoutePattern``) and registers it.
    /// - Throws: ``RouteError/invalidPattern(pattern:reason:)``.
    /// - Returns: the registration's identity, for ``remove(_:)``.
    @discardableResult
    public func add(_ pattern: String, owner: String, isPublic: Bool = false, target: Target) throws(RouteError) -> RouteID {
        add(try RoutePattern(pattern), owner: owner, isPublic: isPublic, target: target)
    }

    /// Registers an already parsed pattern. A pattern that matches exactly the same paths as
    /// one registered earlier is shadowed by it (and a warning is logged).
    /// - Returns: the registration's identity, for ``remove(_:)``.
    @discardableResult
    public func add(_ pattern: RoutePattern, owner: String, isPublic: Bool = false, target: Target) -> RouteID {
        let (id, winner) = state.withLock { state in
            state.lastID += 1
            let entry = RouteEntry(id: RouteID(rawValue: state.lastID), pattern: pattern, owner: owner, isPublic: isPublic, target: target)
            state.entries[entry.id] = entry
            return (entry.id, state.root.insert(entry))
        }
        if let winner {
            logger.warning(
                "route \(pattern) of \(owner) is shadowed by \(winner.pattern) of \(winner.owner), registered earlier",
                metadata: ["route": "\(id)", "shadowed-by": "\(winner.id)"]
            )
        } else {
            logger.debug("added route \(pattern) of \(owner)", metadata: ["route": "\(id)"])
        }
        return id
    }

    /// Removes one registration; a route it shadowed takes over. Removing an unknown or
    /// already removed ID does nothing.
    /// - Returns: whether the route was registered.
    @discardableResult
    public func remove(_ id: RouteID) -> Bool {
        let removed = state.withLock { $0.remove(id) }
        if let removed {
            logger.debug("removed route \(removed.pattern) of \(removed.owner)", metadata: ["route": "\(id)"])
        }
        return removed != nil
    }

    /// Removes every route registered by `owner` (iStructure's `$unroute`).
    /// - Returns: the number of routes removed.
    @discardableResult
    public func remove(owner: String) -> Int {
        // The removed entries (and their targets) are released once `withLock` has returned.
        let removed = state.withLock { state in
            state.entries.values.filter { $0.owner == owner }.compactMap { state.remove($0.id) }
        }
        logger.debug("removed \(removed.count) route(s) of \(owner)")
        return removed.count
    }

    /// Every registered route, in registration order (what `trellis routes` prints).
    public var entries: [RouteEntry<Target>] {
        state.withLock { Array($0.entries.values) }
    }

    /// Finds the route for `path` (see "Paths" and "Precedence" above).
    ///
    /// - Throws: ``RouteError/invalidPath(path:reason:)`` when `path` breaks the path rules,
    ///   ``RouteError/notFound(path:)`` when no pattern matches; both carry `path` as given.
    public func match(_ path: String) throws(RouteError) -> RouteMatch<Target> {
        var text = path
        return try text.withUTF8 { bytes -> Result<RouteMatch<Target>, RouteError> in
            let layout: PathSyntax.Layout
            do throws(PathSyntax.Failure) {
                layout = try PathSyntax.layout(of: bytes)
            } catch {
                return .failure(.invalidPath(path: path, reason: error.reason))
            }
            return withUnsafeTemporaryAllocation(of: String.self, capacity: layout.slashCount) { buffer in
                var count = 0
                defer { _ = buffer.extracting(..<count).deinitialize() }
                do throws(PathSyntax.Failure) {
                    try PathSyntax.forEachSegment(in: bytes, end: layout.pathEnd) { raw throws(PathSyntax.Failure) in
                        buffer.initializeElement(at: count, to: try PathSyntax.decodeSegment(raw))
                        count += 1
                    }
                } catch {
                    return .failure(.invalidPath(path: path, reason: error.reason))
                }
                return makeMatch(path: path, bytes: bytes, layout: layout, segments: UnsafeBufferPointer(buffer.extracting(..<count)))
            }
        }.get()
    }

    /// Walks the trie under the lock, then binds the winner's parameters and parses the query.
    private func makeMatch(
        path: String,
        bytes: UnsafeBufferPointer<UInt8>,
        layout: PathSyntax.Layout,
        segments: UnsafeBufferPointer<String>
    ) -> Result<RouteMatch<Target>, RouteError> {
        var query: [String: String] = [:]
        do throws(PathSyntax.Failure) {
            if let range = layout.query {
                query = try PathSyntax.parseQuery(bytes[range])
            }
        } catch {
            return .failure(.invalidPath(path: path, reason: error.reason))
        }
        guard let route = state.withLock({ $0.root.find(segments.span, from: 0) }) else {
            return .failure(.notFound(path: path))
        }
        var parameters = route.pattern.bind(segments)
        if !query.isEmpty {
            parameters.merge(query) { routeValue, _ in routeValue }
        }
        var pathEnd = layout.pathEnd
        if pathEnd > 1, bytes[pathEnd - 1] == PathSyntax.slash {
            pathEnd -= 1
        }
        let matchedPath = pathEnd == bytes.count ? path : String(decoding: bytes[..<pathEnd], as: UTF8.self)
        return .success(RouteMatch(
            target: route.target, pattern: route.pattern, id: route.id, isPublic: route.isPublic,
            path: matchedPath, parameters: parameters, query: query
        ))
    }
}
