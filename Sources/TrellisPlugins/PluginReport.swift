import TrellisCore
import Foundation

/// What the plugin host knows about one plugin it found: the rows of the `/plugins` page and
/// of `trellis plugins`.
///
/// ```swift
/// for report in await plugins.loadAll() {
///     print(report.id, report.version, report.state)
/// }
/// ```
public struct PluginReport: Sendable, Hashable, CustomStringConvertible {
    /// Where a plugin stands.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// Found and valid, not loaded yet.
        case found
        /// Loaded: its services are registered and its autostart services running.
        case loaded
        /// Disabled in the settings (or by the user since it loaded: its services are stopped).
        case disabled
        /// Not loaded, for the reason given.
        case failed(PluginFailure)
        /// Enabled, not loaded until one of its activation events (see ``PluginActivation``).
        case waiting(activation: [PluginActivation])
        /// Installed by the user, not loaded until they approve what it asks for (the grants
        /// not approved yet, in words; `more`: an earlier version was approved, this one asks
        /// for more). See ``PluginApprovals``.
        case awaitingApproval(grants: [String], more: Bool)

        public var description: String {
            switch self {
            case .found: return "found"
            case .loaded: return "loaded"
            case .disabled: return "disabled"
            case .failed(let failure): return "failed: \(failure)"
            case .waiting(let activation): return "inactive (waiting for \(activation.map(\.description).joined(separator: ", ")))"
            case .awaitingApproval(let grants, let more):
                let asks = grants.isEmpty ? "nothing beyond its own events and pages" : grants.joined(separator: "; ")
                return "waiting for approval: \(more ? "now also asks for" : "asks to") \(asks) (trellis plugins --approve ID, or Approve on the Plugins page)"
            }
        }

        /// True while the plugin waits for an activation event.
        public var isWaiting: Bool {
            if case .waiting = self { return true } else { return false }
        }

        /// The failure, when the state is `failed`.
        public var failure: PluginFailure? {
            if case .failed(let failure) = self { return failure } else { return nil }
        }
    }

    /// The manifest's id; when the manifest was refused, the id it declares if that is a valid
    /// id, else the plugin folder's name.
    public var id: String
    /// The manifest, when it was valid.
    public var manifest: PluginManifest?
    /// The plugin's folder (the one holding `plugin.json`).
    public var directory: URL
    /// Where the folder was found.
    public var origin: PluginSearchPath.Origin
    /// The library file, once located.
    public var library: URL?
    /// The version a manifest that was refused declares, when it could be read (``version``).
    public var declaredVersion: String?
    /// Where the plugin stands.
    public var state: State
    /// How long opening the library, calling its entry and registering its services took.
    public var loadDuration: Duration?
    /// What confines the plugin's process, as it applied it (nil before it runs in a process).
    public var confinement: PluginConfinementReport?

    /// A report; `state` is usually `.found` until the host loads the plugin.
    public init(id: String, manifest: PluginManifest?, directory: URL, origin: PluginSearchPath.Origin,
                library: URL? = nil, state: State, loadDuration: Duration? = nil) {
        self.id = id
        self.manifest = manifest
        self.directory = directory
        self.origin = origin
        self.library = library
        self.state = state
        self.loadDuration = loadDuration
    }

    /// The plugin's version: its manifest's, or what a refused manifest declares, or `?`.
    public var version: String { manifest?.version ?? declaredVersion ?? "?" }

    /// One line: `id version: state (folder)`.
    public var description: String {
        "\(id) \(version): \(state) (\(directory.path))"
    }

    /// The reports as an aligned text table (`trellis plugins` prints it): id, version, state
    /// and origin, then the description or the reason of a failure on the next line, and the
    /// plugin's permissions, contributions, activation and confinement on the lines after.
    /// What a plugin wrote (its id, version, description, routes) is escaped: a control
    /// character shows as `\u{1B}` and is never sent to the terminal. A page the app would
    /// refuse (outside the plugin's `contribute` permission, or a route `appRoutes` or an earlier
    /// plugin has) is listed as refused, with why, not among what the plugin contributes.
    public static func table(_ reports: [PluginReport], kernel: PluginConfinementReport? = PluginConfinementReport.probe(),
                             appRoutes: [RoutePattern] = []) -> String {
        let refusals = PluginRouteRefusal.refusals(in: reports, appRoutes: appRoutes)
        let rows = reports.map { report in
            [report.id, report.version, report.stateWord, report.origin.rawValue].map(escaped)
        }
        let header = ["ID", "VERSION", "STATE", "FROM"]
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var lines = [line(header)]
        for (report, row) in zip(reports, rows) {
            lines.append(line(row))
            var details: [String] = []
            if case .manifest(let error)? = report.state.failure {
                details += error.problems.map(\.description)  // every problem, one a line
            } else if let failure = report.state.failure {
                details.append("\(failure)")
            } else if case .waiting = report.state {
                details.append("\(report.state)")
            } else if case .awaitingApproval = report.state {
                details.append("\(report.state)")
            } else if let text = report.manifest?.description, !text.isEmpty {
                details.append(text)
            }
            if let manifest = report.manifest {
                details.append("permissions: \(manifest.permissions.summary(pluginID: manifest.id))")
                let refused = refusals[report.id] ?? []
                if let contributions = manifest.contributionSummary(refusing: refused.map(\.route)) {
                    details.append("contributes: \(contributions)")
                }
                details += refused.map { "refused: page \($0.route.pattern.text): \($0.reason)" }
                details.append("activation: \(manifest.activation.map(\.description).joined(separator: ", "))")
                if let confinement = report.confinement ?? kernel?.applied(to: manifest.permissions.resources) {
                    details.append("confined by: \(confinement.summary)")
                    details += confinement.missing.map { "not confined: \($0)" }
                }
            }
            lines += details.map { "    " + escaped($0) }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with every control character (C0, DEL, C1) and bidirectional override shown
    /// as an escape (`\u{1B}`), so that what a plugin wrote can neither move the cursor,
    /// recolour the terminal, forge a line nor reorder what people read.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) {
                result += "\\u{\(String(value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The state in one word (`found`, `loaded`, `disabled`, `failed`, `inactive`, `unapproved`).
    public var stateWord: String {
        switch state {
        case .found: return "found"
        case .loaded: return "loaded"
        case .disabled: return "disabled"
        case .failed: return "failed"
        case .waiting: return "inactive"
        case .awaitingApproval: return "unapproved"
        }
    }
}
