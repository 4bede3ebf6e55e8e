import TrellisCore

extension ShellWindow {
    /// Presses page action `id`, from its button or from the primary menu: at once, or, when
    /// the action asks first (``PageAction/confirmation``), once the person confirms in a
    /// ``ConfirmationDialog``. The answer goes to the page that showed the button.
    func pressPageAction(_ id: String) {
        guard let action = pageActions.first(where: { $0.id == id }), let handler = pageActionHandler else { return }
        guard let confirmation = action.confirmation else { return handler(id) }
        guard confirmationDialog?.isOpen != true else { return }
        confirmationDialog = ConfirmationDialog(confirmation, over: window) { [weak self] confirmed in
            self?.confirmationDialog = nil
            if confirmed { handler(id) }
        }
    }
}
