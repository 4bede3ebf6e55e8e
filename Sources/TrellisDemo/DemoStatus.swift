import TrellisCore

/// The window's status line, made of two parts: the sync's state first ("Sync: offline, 3
/// changes waiting"), then the app's other news (the last position). Each part is
/// replaced on its own, so a location update every two seconds never hides the sync's state.
@MainActor
public final class DemoStatus {
    private weak var shell: Shell?
    /// The sync's part, if a server is configured.
    public private(set) var sync: String?
    /// The plugins' status items, "title: text" each.
    public private(set) var pluginLines: [String] = []
    /// The other news.
    public private(set) var news: String?

    private init(shell: Shell) {
        self.shell = shell
    }

    /// The status line of `shell` (made and provided in its environment on first use).
    public static func of(_ shell: Shell) -> DemoStatus {
        if let status = shell.resolve(DemoStatus.self) { return status }
        let status = DemoStatus(shell: shell)
        shell.provide(status)
        return status
    }

    /// Replaces the sync's part.
    public func showSync(_ text: String?) {
        sync = text
        show()
    }

    /// Replaces the plugins' part.
    public func showPluginLines(_ lines: [String]) {
        pluginLines = lines
        show()
    }

    /// Replaces the other news.
    public func showNews(_ text: String?) {
        news = text
        show()
    }

    /// The whole line: the parts shown, the sync's first, then the plugins', then the news.
    public var text: String? {
        let parts = [sync].compactMap { $0 } + pluginLines + [news].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "  ·  ")
    }

    private func show() {
        shell?.showStatus(text)
    }
}
