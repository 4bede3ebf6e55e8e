import CGtk
import Logging
import TrellisCore

extension GtkFrontend {
    /// Adds the items of every ``MenuItemContributor`` of the shell (the plugins' commands and
    /// pages, say) to the primary menu's contributed section, now and for contributors added
    /// later. Call it after the app's own actions, so that a contributor cannot take their
    /// shortcuts: an item keeps its accelerator unless it is not valid GTK syntax or an action
    /// has it already — then the item stays, without it, and the log says why, naming both.
    /// An item is greyed out while its contributor says it is not available.
    ///
    /// ```swift
    /// frontend.addMenuAction("new-note", label: "New note", accelerators: ["<Control>n"]) { try? shell.navigate(to: "/notes/new") }
    /// frontend.addContributedMenuItems()
    /// ```
    public func addContributedMenuItems(logger: Logger = Logger(trellis: "trellis.window")) {
        guard !acceptsContributedMenuItems else { return }
        acceptsContributedMenuItems = true
        contributedMenuLogger = logger
        for contributor in shell.menuContributors { add(contributor) }
    }

    public func menuContributorAdded(_ contributor: any MenuItemContributor) {
        if acceptsContributedMenuItems { add(contributor) }
    }

    private func add(_ contributor: any MenuItemContributor) {
        var added: [String: ContributedMenuItem] = [:]
        addItems(of: contributor, skipping: &added)
        // Availability changed; the items may have too (a plugin fixed under --plugin-dev): new ones join.
        shell.bus.watchOnMainActor(contributor.availabilityChangedPattern, owner: self) { [weak contributor] frontend, _ in
            if let contributor { frontend.addItems(of: contributor, skipping: &added) }
        }
    }

    /// Adds the items of `contributor` not in `added` (and notes them there), then greys out or
    /// enables every item it ever added as it says (one it no longer lists — a disabled plugin's
    /// command, say — included).
    private func addItems(of contributor: any MenuItemContributor, skipping added: inout [String: ContributedMenuItem]) {
        let logger = contributedMenuLogger
        let items = contributor.menuItems
        for item in items where added[item.actionName] == nil {
            added[item.actionName] = item
            var accelerators: [String] = []
            if let accelerator = item.accelerator {
                let what = "\(item.contributor): \(item.title.debugDescription): accelerator \(accelerator)"
                var key: guint = 0
                var modifiers = GdkModifierType(rawValue: 0)
                if gtk_accelerator_parse(accelerator, &key, &modifiers) == 0 || key == 0 {
                    logger.warning("\(what) refused: not a valid GTK accelerator (such as <Control><Shift>h)")
                } else if let owner = Self.action(for: accelerator, application: application.pointer) {
                    logger.warning("\(what) refused: the action \(owner) has it")
                } else {
                    accelerators = [accelerator]
                }
            }
            addMenuAction(item.actionName, label: item.title, section: .plugins, accelerators: accelerators) { [weak contributor] in
                contributor?.perform(item)
            }
        }
        for item in added.values { setActionEnabled(item.actionName, contributor.isAvailable(item)) }
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
