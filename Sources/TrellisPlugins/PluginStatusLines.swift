import TrellisCore
import Logging

/// The status lines the loaded plugins contribute (their manifests' `"statusItems"`), kept up
/// to date from their `<plugin id>:status` events: what an app shows in its status area.
///
/// ```swift
/// let lines = PluginStatusLines(host: plugins)
/// lines.start { lines in status.showPluginLines(lines.map(\.text)) }   // on the main actor
/// ```
///
/// An event naming an item the manifest does not declare, or without a string (or null)
/// `text`, is ignored and logged once per plugin and item. A plugin that is disabled or
/// crashes loses its lines until it sets them again.
public final class PluginStatusLines: Sendable {
    /// One line, in the order of the plugins and of their manifests' items.
    public struct Line: Sendable, Equatable {
        public let plugin: String
        public let item: PluginStatusItem
        /// The plugin's text, as it set it last.
        public let text: String
    }

    /// The longest text kept, in characters (a status line is one short line).
    public static let maximumLength = 200

    private let host: PluginHost
    private let logger: Logger
    private let texts = LockedState<[String: [String: String]]>([:])
    private let warned = LockedState<Set<String>>([])
    /// The plugins whose status events are watched.
    private let followed = LockedState<Set<String>>([])

    public init(host: PluginHost, logger: Logger = Logger(trellis: "trellis.plugins")) {
        self.host = host
        self.logger = logger
    }

    /// The lines with a text, now.
    public var lines: [Line] {
        let texts = self.texts.withLock { $0 }
        return host.reports.filter { $0.state == .loaded }.flatMap { report -> [Line] in
            guard let manifest = report.manifest else { return [] }
            return manifest.statusItems.compactMap { item in
                texts[manifest.id]?[item.id].map { Line(plugin: manifest.id, item: item, text: $0) }
            }
        }
    }

    /// Follows the plugins' status events from now on, beginning with the items they set
    /// already (while they loaded, say); `onChange` gets every line after each change, on the
    /// main actor. A plugin whose manifest gains status items when it is reloaded (one broken
    /// at start-up and fixed under `--plugin-dev`) is followed from then on.
    public func start(onChange: @escaping @MainActor @Sendable ([Line]) -> Void) {
        let changed: @Sendable () -> Void = { [weak self] in
            Task { @MainActor in if let lines = self?.lines { onChange(lines) } }
        }
        var setAlready = false
        for report in host.reports where follow(report.id, changed: changed) { setAlready = true }
        if setAlready { changed() }
        host.bus.watch(PluginReloaded.name, owner: self) { lines, event in
            guard let plugin = event.data["plugin"]?.stringValue else { return }
            _ = lines.follow(plugin, changed: changed)
            changed()  // its items may have changed with its manifest
        }
        // A plugin's lines show once it is loaded: what it set while starting (its service's
        // start sends its first position, say, before the start's answer) shows then.
        for message in [PluginActivated.name, PluginEnabled.name, PluginRestarted.name] {
            host.bus.watch(message, owner: self) { _, _ in changed() }
        }
        for message in [PluginDisabled.name, PluginCrashed.name] {
            host.bus.watch(message, owner: self) { lines, event in
                guard let plugin = event.data["plugin"]?.stringValue else { return }
                if lines.texts.withLock({ $0.removeValue(forKey: plugin) }) != nil { changed() }
            }
        }
    }

    /// Watches the status events of `plugin` when its manifest declares status items and they
    /// are not watched yet, taking what it set before now; true when that set a line.
    private func follow(_ plugin: String, changed: @escaping @Sendable () -> Void) -> Bool {
        guard host.report(for: plugin)?.manifest?.statusItems.isEmpty == false,
              followed.withLock({ $0.insert(plugin).inserted }) else { return false }
        host.bus.watch("\(plugin):status", owner: self) { lines, event in
            if lines.set(plugin: plugin, event.data) { changed() }
        }
        var setAlready = false
        for data in host.latestStatus(of: plugin) where set(plugin: plugin, data) { setAlready = true }
        return setAlready
    }

    /// Records `data` of a `<plugin>:status` event; false when it changed nothing.
    private func set(plugin: String, _ data: JSONValue) -> Bool {
        let items = host.report(for: plugin)?.manifest?.statusItems.map(\.id) ?? []
        guard let item = data["item"]?.stringValue, items.contains(item) else {
            warnOnce(plugin, "\(data["item"]?.stringValue ?? "(none)")", "names no item of its manifest's statusItems (\(items.joined(separator: ", ")))")
            return false
        }
        let text: String?
        switch data["text"] {
        case .string(let value)?: text = String(value.prefix(Self.maximumLength))
        case .null?, nil: text = nil
        default:
            warnOnce(plugin, item, "\"text\" must be a string, or null to hide the item")
            return false
        }
        return texts.withLock { texts in
            guard texts[plugin]?[item] != text else { return false }
            texts[plugin, default: [:]][item] = text
            return true
        }
    }

    private func warnOnce(_ plugin: String, _ item: String, _ problem: String) {
        guard warned.withLock({ $0.insert("\(plugin) \(item)").inserted }) else { return }
        logger.warning("plugin \"\(plugin)\": \(plugin):status for item \(item.debugDescription): ignored: \(problem)")
    }
}
