import TrellisCore
import Foundation

/// A command a plugin contributes, as the window shows it: the manifest's command, with its
/// accelerator only when no one took it first.
public struct PluginCommandContribution: Sendable, Hashable {
    /// The plugin that contributes it.
    public let plugin: String
    /// The command as its manifest declares it.
    public let command: PluginCommand
    /// The keyboard shortcut the window binds: the command's, or nil when it has none or the
    /// accelerator was refused (already taken).
    public let accelerator: String?

    /// A name for the window's action, unique per plugin and command: `plugin-<plugin>-<id>`
    /// with every character GAction does not allow as `-`.
    public var actionName: String { Self.actionName(plugin: plugin, item: command.id) }

    /// A window action's name for item `item` of plugin `plugin`: `plugin-<plugin>-<item>` with
    /// every character GAction does not allow as `-`.
    public static func actionName(plugin: String, item: String) -> String {
        // On UTF-8 bytes (every allowed character is ASCII): one `-` for each scalar, at its
        // first byte, none for the bytes that continue it.
        let source = "plugin-\(plugin)-\(item)".utf8
        var name: [UInt8] = []
        name.reserveCapacity(source.count)
        for byte in source {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                name.append(byte)
            case 0x80...0xBF:
                continue
            default:
                name.append(UInt8(ascii: "-"))
            }
        }
        return String(decoding: name, as: UTF8.self)
    }
}

extension PluginHost {
    /// The commands of every loaded plugin, and of every plugin waiting for its activation, in
    /// the order the plugins were found. Two plugins
    /// asking for one accelerator: the first keeps it; the second's command stays, without
    /// it, and the refusal is logged naming both plugins. So is an accelerator in `taken`
    /// (accelerator → who has it, such as "the app's New note").
    public func commandContributions(taken: [String: String] = [:]) -> [PluginCommandContribution] {
        var owners = Dictionary(taken.map { (PluginCommand.normalized($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        var contributions: [PluginCommandContribution] = []
        for report in reports where report.state == .loaded || report.state.isWaiting {
            guard let manifest = report.manifest else { continue }
            for command in manifest.commands {
                var accelerator = command.accelerator
                if let wanted = accelerator {
                    let key = PluginCommand.normalized(wanted)
                    if let owner = owners[key] {
                        logger.warning("plugin \"\(manifest.id)\": command \"\(command.id)\": accelerator \(wanted) refused: \(owner) has it")
                        accelerator = nil
                    } else {
                        owners[key] = "plugin \"\(manifest.id)\" (command \"\(command.id)\")"
                    }
                }
                contributions.append(PluginCommandContribution(plugin: manifest.id, command: command, accelerator: accelerator))
            }
        }
        return contributions
    }

    /// Invokes a contributed command: triggers `<plugin>:command` with `{"command": id}` for
    /// the plugin to act on. A waiting plugin (for `onCommand:` of it, for another activation
    /// event, or for the end of a deferred start) is activated first, in a task of its own,
    /// and then receives the command, as opening one of its pages activates it. False, with
    /// nothing triggered, when the plugin is not loaded now (disabled, or failed).
    ///
    /// `page`: the page whose button ran a `pageActions` command, sent along as `"path"` and
    /// `"parameters"`.
    @discardableResult
    public func invoke(_ contribution: PluginCommandContribution, page: RouteValues? = nil) -> Bool {
        let state = report(for: contribution.plugin)?.state
        if case .waiting? = state {
            requestActivation(contribution.plugin) { [self] report in
                if report?.state == .loaded { invoke(contribution, page: page) }
            }
            return true
        }
        guard state == .loaded else {
            logger.notice("plugin \"\(contribution.plugin)\" is not loaded: command \"\(contribution.command.id)\" not run")
            return false
        }
        var data: [String: JSONValue] = ["command": .string(contribution.command.id)]
        if let page {
            data["path"] = .string(page.path)
            data["parameters"] = .object(page.parameters.mapValues(JSONValue.string))
        }
        bus.trigger("\(contribution.plugin):command", .object(data))
        return true
    }
}
