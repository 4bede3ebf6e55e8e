import TrellisCore

/// Says when a plugin fails, where its author and its user look: a notice in the window naming
/// the plugin and why ("The plugin “Shelf” failed: …"), with a button that opens the app's
/// plugins page. Every failure is told once, whenever it happens: a manifest refused when the
/// plugins are found, a library that does not load, a start that fails, a crash, a reload under
/// `--plugin-dev`; and so is a plugin installed by the user that waits for their approval. (The
/// host logs each failure too: standard error, in `trellis --headless`.)
///
/// ```swift
/// PluginFailureNotices(shell: shell, host: plugins, pluginsPage: "/plugins").start()
/// ```
///
/// Failures told while the notice of earlier ones is still on screen join it: "2 plugins did
/// not load: “Shelf”, “Weather”".
@MainActor
public final class PluginFailureNotices {
    private weak var shell: Shell?
    private let host: PluginHost
    private let pluginsPage: String?
    /// What was told of each plugin folder that failed (or waits), by folder path.
    private var told: [String: String] = [:]
    /// The notice on screen, and the plugins it names.
    private var shown: (notice: Int, names: [String])?

    /// - Parameter pluginsPage: the route of the app's page listing the plugins (the demo's
    ///   `/plugins`), which the notice's button opens; nil: a notice without a button.
    public init(shell: Shell, host: PluginHost, pluginsPage: String? = nil) {
        self.shell = shell
        self.host = host
        self.pluginsPage = pluginsPage
    }

    /// Tells the failures known now (the manifests refused when the plugins were found), then
    /// each one after it happens. The first are told once the code running now has returned,
    /// so that a window being built shows them.
    public func start() {
        guard let shell else { return }
        shell.bus.watchOnMainActor(PluginEvents.all, owner: self) { notices, _ in notices.tell() }
        Task { @MainActor [weak self] in self?.tell() }
    }

    /// Posts a notice for the failures not told yet, if any.
    func tell() {
        var fresh: [(name: String, text: String)] = []
        for report in host.reports {
            let key = report.directory.path
            let text: String
            switch report.state {
            case .failed(let failure):
                text = tr("The plugin “%@” failed: %@", name(of: report), Self.brief("\(failure)", folder: report.directory.path))
            case .awaitingApproval: text = tr("The plugin “%@” waits for your approval.", name(of: report))
            default:
                told[key] = nil
                continue
            }
            guard told[key] != text else { continue }
            told[key] = text
            fresh.append((name(of: report), text))
        }
        guard let shell, !fresh.isEmpty else { return }
        var names = fresh.map(\.name)
        if let shown, shell.notices.current?.id == shown.notice { names = shown.names.filter { !names.contains($0) } + names }
        let text = names.count == 1 ? fresh[0].text
            : tr("%@ plugins did not load: %@", "\(names.count)", names.map { "“\($0)”" }.joined(separator: ", "))
        let notice: Notice
        if let page = pluginsPage {
            notice = shell.notify(text, button: tr("Plugins")) { [weak shell] in try? shell?.navigate(to: page) }
        } else {
            notice = shell.notify(text, undo: nil)
        }
        shown = (notice.id, names)
    }

    private func name(of report: PluginReport) -> String {
        PluginReport.escaped(report.manifest?.name ?? report.id)
    }

    /// A failure's text as a notice shows it (the plugins page shows it all): the plugin's own
    /// files named without their folder (`plugin.json`), lists of what a key may hold left out,
    /// at most 240 characters.
    static func brief(_ text: String, folder: String) -> String {
        let line = PluginReport.escaped(text.replacingOccurrences(of: folder + "/", with: ""))
            .replacingOccurrences(of: #" \(known: [^)]*\)"#, with: "", options: .regularExpression)
        return line.count <= 240 ? line : line.prefix(239) + "…"
    }
}
