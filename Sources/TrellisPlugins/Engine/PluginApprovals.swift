import TrellisCore
import Foundation

/// What the user approved of each plugin they installed, remembered in
/// `$XDG_CONFIG_HOME/trellis/plugin-approvals.json` beside the plugin settings (Chrome's
/// model): a plugin from the user's plugin folder loads only once its permissions are
/// approved, and a new version that asks for more waits ("now also asks for …") until they
/// are approved again. Plugins the app ships are approved by the app, and a `--plugin-dir` on
/// the command line approves what it names for that run.
///
/// ```json
/// {"approved": {"weather": {"manifest": "fnv1a64:9c1e…", "grants": ["connect to api.example.org:443"]}}}
/// ```
///
/// What counts is the list of grants, in the words the user read: the manifest's hash is kept
/// beside them to tell a changed file, not to decide.
public struct PluginApprovals: Sendable {
    /// The approvals file.
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// What plugin `manifest` may do, one line per grant, in words a person understands
    /// (beyond its own events, commands and pages, which every plugin has).
    public static func grants(of manifest: PluginManifest) -> [String] {
        let permissions = manifest.permissions
        var lines: [String] = []
        let verbs: [(PluginPermissions.Kind, String)] = [
            (.trigger, "send the app's events"), (.watch, "receive the app's events"), (.navigate, "open the app's page"),
            (.request, "ask the app to run"), (.contribute, "add pages at"),
        ]
        for (kind, verb) in verbs {
            for pattern in permissions.grants[kind] ?? [] { lines.append("\(verb) \(pattern)") }
        }
        return lines + permissions.resources.words
    }

    /// Why plugin `manifest`, found in `folder`, must wait for the user, or nil when what it
    /// asks for is approved: the grants not approved yet, and whether an earlier version was.
    public func pending(_ manifest: PluginManifest) -> (grants: [String], earlierApproved: Bool)? {
        let asked = Self.grants(of: manifest)
        guard let approved = entries()[manifest.id] else { return (asked, false) }
        let known = Set(approved["grants"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let more = asked.filter { !known.contains($0) }
        return more.isEmpty ? nil : (more, true)
    }

    /// Approves what plugin `manifest` (whose file is `file`) asks for now.
    public func approve(_ manifest: PluginManifest, file: URL) throws(PluginSettingsError) {
        var all = entries()
        let bytes = (try? Data(contentsOf: file)) ?? Data()
        all[manifest.id] = ["manifest": .string(Self.hash(bytes)), "grants": .array(Self.grants(of: manifest).map(JSONValue.string))]
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONValue.object(["approved": .object(all)]).jsonData().write(to: url, options: .atomic)
        } catch {
            throw .unwritable(file: url.path, reason: error.localizedDescription)
        }
    }

    private func entries() -> [String: JSONValue] {
        guard let data = try? Data(contentsOf: url), let json = try? JSONValue(jsonData: data) else { return [:] }
        return json["approved"]?.objectValue ?? [:]
    }

    /// FNV-1a, 64 bits, of `bytes`: tells a changed manifest (not a security boundary: the
    /// grants decide).
    static func hash(_ bytes: Data) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return "fnv1a64:" + String(value, radix: 16)
    }
}
