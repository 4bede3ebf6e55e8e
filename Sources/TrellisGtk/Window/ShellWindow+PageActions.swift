import CGtk
import TrellisCore

/// The page's buttons in the header bar (or, on a narrow window, at the top of the primary
/// menu), and what pressing one does.
extension ShellWindow {
    /// Replaces the header bar's page buttons; `handler` gets the pressed action's id.
    public func setPageActions(_ actions: [PageAction], handler: @escaping (String) -> Void) {
        for button in pageActionButtons.values { gtk_box_remove(pageActionsBox.object.as(), button.widget) }
        pageActionButtons = [:]
        for action in actions {
            let button: Button
            if let icon = action.icon {
                button = Button(gtk_button_new_from_icon_name(icon))
                // Flat like the window's own header-bar icons; labelled buttons keep a frame.
                gtk_button_set_has_frame(button.object.as(), 0)
                button.setAccessibleName(action.label)
            } else {
                button = Button(gtk_button_new_with_label(action.label))
            }
            let id = action.id
            button.connect("clicked") { [weak self] in self?.pressPageAction(id) }
            gtk_box_append(pageActionsBox.object.as(), button.widget)
            pageActionButtons[action.id] = button
        }
        pageActions = actions
        pageActionHandler = handler
        listFoldedPageActions()
    }

    /// Lists the page's actions at the top of the primary menu while they are folded.
    func listFoldedPageActions() {
        menu.removeAll(in: .page)
        guard isHeaderFolded else { return }
        for action in pageActions {
            // A string target: "win.page-action::new" presses action "new".
            menu.add(action.label, action: "win.page-action::\(action.id)", section: .page)
        }
    }

    /// Presses page action `id`, from its button or from the primary menu: at once, or, when
    /// the action asks first (``PageAction/confirmation``), once the person confirms in a
    /// ``ConfirmationDialog``. The answer goes to the page that showed the button.
    func pressPageAction(_ id: String) {
        guard let action = pageActions.first(where: { $0.id == id }), let handler = pageActionHandler else { return }
        guard let confirmation = action.confirmation else { return handler(id) }
        guard confirmationDialog == nil else { return }
        confirmationDialog = ConfirmationDialog(confirmation, over: window) { [weak self] confirmed in
            self?.confirmationDialog = nil
            if confirmed { handler(id) }
        }
    }
}
