import Testing
@testable import TrellisPlugins
import TrellisCore

@Suite("Plugin load order")
struct PluginLoadOrderTests {
    @Test("dependencies come first; otherwise discovery order is kept")
    func dependenciesFirst() {
        let order = PluginLoadOrder(plugins: [("app", ["ui", "net"]), ("ui", ["net"]), ("net", []), ("solo", [])],
                                    unavailable: [:])
        #expect(order.sequence == ["net", "ui", "app", "solo"])
        #expect(order.failures.isEmpty)
    }

    @Test("a missing dependency fails its dependents, transitively")
    func missing() {
        let order = PluginLoadOrder(plugins: [("top", ["middle"]), ("middle", ["ghost"]), ("free", [])], unavailable: [:])
        #expect(order.sequence == ["free"])
        #expect(order.failures["middle"] == .dependencyMissing(dependency: "ghost"))
        #expect(order.failures["top"] == .dependencyUnavailable(dependency: "middle",
                                                                reason: #"dependency "ghost" is not installed"#))
    }

    @Test("a dependency that exists but will not load is named with why")
    func unavailable() {
        let order = PluginLoadOrder(plugins: [("needs-off", ["off"])], unavailable: ["off": "it is disabled"])
        #expect(order.failures["needs-off"] == .dependencyUnavailable(dependency: "off", reason: "it is disabled"))
    }

    @Test("every member of a cycle is reported with the cycle from itself; plugins hanging off it fail too")
    func cycle() {
        let order = PluginLoadOrder(plugins: [("a", ["b"]), ("b", ["c"]), ("c", ["a"]), ("d", ["c"]), ("e", [])],
                                    unavailable: [:])
        #expect(order.sequence == ["e"])
        #expect(order.failures["a"] == .dependencyCycle(["a", "b", "c", "a"]))
        #expect(order.failures["b"] == .dependencyCycle(["b", "c", "a", "b"]))
        #expect(order.failures["c"] == .dependencyCycle(["c", "a", "b", "c"]))
        #expect(order.failures["d"] == .dependencyUnavailable(dependency: "c", reason: "dependency cycle: c → a → b → c"))
    }
}
