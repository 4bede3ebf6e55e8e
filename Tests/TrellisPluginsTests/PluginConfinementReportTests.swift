import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// What `trellis plugins` and `/plugins` say of each plugin's confinement, and how plugin
/// text reaches a terminal.
@Suite("Plugin confinement, as shown")
struct PluginConfinementReportTests {
    @Test("each plugin's lines say what confines it on this kernel and what is missing; a loaded one, what it applied")
    func shown() async throws {
        let kernel = try #require(PluginConfinementReport.probe(), "trellis-plugin-host --probe answers")
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox, isolation: .process)
        let listed = PluginReport.table(harness.host.survey())
        #expect(listed.contains("    confined by: \(kernel.summary)"), "\(listed)")
        for line in kernel.missing { #expect(listed.contains("    not confined: \(line)")) }

        let report = try #require(await harness.load()[id: "c-hello"])
        let applied = try #require(report.confinement, "the process reported what it applied")
        #expect(applied.seccomp == kernel.seccomp && applied.landlockABI == kernel.landlockABI && applied.noNewPrivileges)
        #expect(applied.pidNamespace == kernel.pidNamespace && applied.shellWatch)
        #expect(PluginReport.table(harness.host.reports).contains("    confined by: \(applied.summary)"))
    }

    @Test("plugin text in the table is escaped: escape codes, new lines and bidi overrides are shown, never sent")
    func escaped() throws {
        let manifest = try PluginManifest(json: ["id": "loud", "name": "Loud", "version": "1\u{1B}[2J", "abiVersion": 2,
                                                 "library": "libloud.so", "description": "red \u{1B}[31mtext\nforged log line \u{202E}txt.exe"],
                                          file: "plugin.json")
        let report = PluginReport(id: "loud", manifest: manifest, directory: URL(fileURLWithPath: "/p/loud"), origin: .user, state: .found)
        let table = PluginReport.table([report], kernel: nil)
        #expect(!table.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        #expect(table.contains(#"1\u{1B}[2J"#) && table.contains(#"red \u{1B}[31mtext\u{A}forged log line \u{202E}txt.exe"#), "\(table)")
        #expect(table.split(separator: "\n").count == 5, "header, row, description, permissions, activation: \(table)")
    }

    @Test("requiring confinement is remembered in the settings file, and this run's flag holds whatever the file says")
    func required() throws {
        let folder = try TestFolder.make("settings")
        let settings = PluginSettings(url: folder.appendingPathComponent("plugins.json"))
        #expect(!settings.requiresConfinement)
        try settings.setRequiresConfinement(true)
        let again = PluginSettings(url: settings.url)
        try again.load()
        #expect(again.requiresConfinement)
        try again.setEnabled("x", false)
        try again.setRequiresConfinement(false)
        let third = PluginSettings(url: settings.url)
        try third.load()
        #expect(!third.requiresConfinement && !third.isEnabled("x"))
        third.requireConfinementForThisRun()
        #expect(third.requiresConfinement)
    }
}
