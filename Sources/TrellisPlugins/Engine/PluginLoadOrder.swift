import TrellisCore

/// Orders plugins so that every plugin comes after its dependencies (a depth-first
/// topological sort), and finds the plugins that cannot load because a dependency is missing,
/// unavailable or part of a cycle.
///
/// Discovery order is kept wherever dependencies allow, so the result is stable.
///
/// ```swift
/// let order = PluginLoadOrder(plugins: [("b", ["a"]), ("a", [])], unavailable: [:])
/// assert(order.sequence == ["a", "b"])
/// ```
public struct PluginLoadOrder: Sendable {
    /// Plugins that can load, dependencies first.
    public private(set) var sequence: [String] = []
    /// Plugins that cannot load, with why.
    public private(set) var failures: [String: PluginFailure] = [:]

    private enum Mark { case visiting, done, failed }
    private var marks: [String: Mark] = [:]
    private var stack: [String] = []
    private let dependencies: [String: [String]]
    private let unavailable: [String: String]

    /// Resolves the order of `plugins` (ids with their dependencies, in discovery order).
    /// `unavailable` holds ids that exist but will not load, with the reason (e.g. "it is
    /// disabled"), so that dependents get a precise failure instead of "not installed".
    public init(plugins: [(id: String, dependencies: [String])], unavailable: [String: String]) {
        dependencies = Dictionary(plugins.map { ($0.id, $0.dependencies) }, uniquingKeysWith: { first, _ in first })
        self.unavailable = unavailable
        for plugin in plugins { _ = visit(plugin.id) }
    }

    /// Visits `id` and its dependencies; true when `id` can load.
    private mutating func visit(_ id: String) -> Bool {
        switch marks[id] {
        case .done: return true
        case .failed: return false
        case .visiting:
            failCycle(closingAt: id)
            return false
        case nil: break
        }
        marks[id] = .visiting
        stack.append(id)
        defer { stack.removeLast() }
        for dependency in dependencies[id] ?? [] {
            if dependencies[dependency] == nil {
                let failure: PluginFailure = unavailable[dependency].map {
                    .dependencyUnavailable(dependency: dependency, reason: $0)
                } ?? .dependencyMissing(dependency: dependency)
                fail(id, failure)
                return false
            }
            if !visit(dependency) {
                // A member of a cycle keeps its cycle failure; others name the broken dependency.
                if marks[id] != .failed {
                    let reason = failures[dependency]?.description ?? "it cannot load"
                    fail(id, .dependencyUnavailable(dependency: dependency, reason: reason))
                }
                return false
            }
        }
        marks[id] = .done
        sequence.append(id)
        return true
    }

    /// Fails every plugin of the cycle that ends where `id` is visited again.
    private mutating func failCycle(closingAt id: String) {
        guard let start = stack.firstIndex(of: id) else { return }
        let members = Array(stack[start...])
        for (offset, member) in members.enumerated() {
            let rotated = Array(members[offset...] + members[..<offset])
            fail(member, .dependencyCycle(rotated + [member]))
        }
    }

    private mutating func fail(_ id: String, _ failure: PluginFailure) {
        marks[id] = .failed
        failures[id] = failure
    }
}
