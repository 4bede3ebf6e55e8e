import CGtk
import Logging
import TrellisCore

extension GtkFrontend {
    /// Adds every command the loaded plugins contribute (their manifests' `"commands"`) to the
    /// primary menu's plugin section, each with its accelerator unless it is not valid GTK
    /// syntax, or the app or a plugin found earlier already has it — then the command stays,
    /// without it, and the log says why, naming both. Choosing one calls
    /// `PluginHost.invoke(_:)`: the plugin receives `<plugin id>:command`.
    ///
    /// ```swift
    /// frontend.addPluginCommands(from: plugins)   // after the plugins loaded
    /// ```
    public func addPluginCommands(from host: PluginHost, logger: Logger = Logger(trellis: "trellis.plugins")) {
        for contribution in host.commandContributions() where contribution.command.placement == .primaryMenu {
            var accelerators: [String] = []
            if let accelerator = contribution.accelerator {
                let what = "plugin \"\(contribution.plugin)\": command \"\(contribution.command.id)\": accelerator \(accelerator)"
                var key: guint = 0
                var modifiers = GdkModifierType(rawValue: 0)
                if gtk_accelerator_parse(accelerator, &key, &modifiers) == 0 || key == 0 {
                    logger.warning("\(what) refused: not a valid GTK accelerator (such as <Control><Shift>h)")
                } else if let owner = Self.action(for: accelerator, application: application.pointer) {
                    logger.warning("\(what) refused: the app's action \(owner) has it")
                } else {
                    accelerators = [accelerator]
                }
            }
            addMenuAction(contribution.actionName, label: Localization.translate(contribution.command.title, plugin: contribution.plugin), section: .plugins,
                          accelerators: accelerators) { host.invoke(contribution) }
        }
        addPluginPages(from: host)
        // A disabled or failed plugin's commands are greyed out until it loads again.
        let contributions = host.commandContributions().filter { $0.command.placement == .primaryMenu }
        let update: @MainActor (GtkFrontend) -> Void = { frontend in
            for contribution in contributions {
                let state = host.report(for: contribution.plugin)?.state
                frontend.setActionEnabled(contribution.actionName, state == .loaded || state?.isWaiting == true)
            }
        }
        update(self)
        host.bus.watchOnMainActor("plugin:*", owner: self) { frontend, _ in update(frontend) }
    }

    /// Adds each page the plugins contribute that needs no parameter (`/weather`, not
    /// `/weather/:city`) to the primary menu's plugin section, under its title.
    private func addPluginPages(from host: PluginHost) {
        guard let pages = shell.resolve(PluginPageRoutes.self) else { return }
        for report in host.reports {
            for route in pages.registeredRoutes(of: report.id) where !route.pattern.text.contains(":") && !route.pattern.text.contains("*") {
                let name = PluginCommandContribution.actionName(plugin: report.id, item: "page" + route.pattern.text)
                addMenuAction(name, label: Localization.translate(route.title, plugin: report.id), section: .plugins) { [weak self] in
                    guard let shell = self?.shell else { return }
                    do throws(NavigationError) { try shell.navigate(to: route.pattern.text) } catch { shell.navigator.top?.message = error.description }
                }
            }
        }
    }

    /// Enables or disables window action `name` (its menu item and shortcut follow).
    func setActionEnabled(_ name: String, _ enabled: Bool) {
        // Every window action Trellis adds is a GSimpleAction (`Actions.add`).
        guard let action = g_action_map_lookup_action(window.window.object.as(), name) else { return }
        g_simple_action_set_enabled(GObjectPointer(action).as(), enabled ? 1 : 0)
    }

    /// The first action bound to `accelerator` in `application`, or nil.
    private static func action(for accelerator: String, application: GObjectPointer) -> String? {
        guard let list = gtk_application_get_actions_for_accel(application.as(), accelerator) else { return nil }
        defer { g_strfreev(list) }
        return list[0].map { String(cString: $0) }
    }
}
