import Foundation
import Testing
import TrellisPlugins
import TrellisCore

/// The namespaces no plugin may take as its id are Trellis's own event namespaces: read here
/// from every event name the sources spell (a literal such as "store:saved" or "sync:*"), so
/// that a new one cannot be forgotten in ``PluginReservedNames/hostNamespaces``.
@Suite("Reserved plugin names")
struct PluginReservedNamesTests {
    /// Literals of the form "name:…" that are not event names.
    static let notEvents: Set<String> = ["setting", "option", "onEvent", "onCommand", "http", "https", "file", "greeter", "weather"]

    @Test("every event namespace the shell, store, sync, front ends and demo use is reserved")
    func derivedFromTheSources() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let literal = try Regex(#""([a-z][a-zA-Z]*):[a-z*][a-zA-Z*:._-]*""#)
        var found: Set<String> = []
        for module in ["TrellisCore", "TrellisPlugins", "TrellisStore", "TrellisSync", "TrellisGtk", "TrellisHeadless", "TrellisDemo"] {
            let folder = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for match in line.matches(of: literal) {
                        let name = String(line[match.range].dropFirst().prefix { $0 != ":" })
                        if !Self.notEvents.contains(name) { found.insert(name) }
                    }
                }
            }
        }
        #expect(found.contains("plugin") && found.contains("store"), "\(found)")
        #expect(found.subtracting(PluginReservedNames.hostNamespaces).isEmpty,
                "event namespaces used but not reserved: \(found.subtracting(PluginReservedNames.hostNamespaces).sorted())")
    }
}
