import CGtk
import CTrellisGtk
import TrellisCore

/// The question a page action asks before it runs (``PageAction/Confirmation``): a modal
/// `GtkMessageDialog` over the window with the question in bold, what the person needs to
/// know below it, wrapped in full, and Cancel beside the confirming button. Cancel is the
/// default (Enter) and Escape cancels too, so that no accidental key press decides; a screen
/// reader announces an alert dialog named by the question. The answer is given once: the
/// dialog closes with it, and closing the window or the dialog any other way cancels. The
/// window holds it while it is open (``ShellWindow/confirmationDialog``), and lets it go with
/// the answer.
@MainActor
final class ConfirmationDialog {
    /// What is asked.
    let confirmation: PageAction.Confirmation
    private let dialog: Dialog
    private var answer: ((Bool) -> Void)?

    /// Shows `confirmation` over `window`; `answer` gets `true` when the person confirms.
    init(_ confirmation: PageAction.Confirmation, over window: ApplicationWindow, answer: @escaping (Bool) -> Void) {
        self.confirmation = confirmation
        self.answer = answer
        // Transfer none: GTK's list of toplevels owns the new window; this wrapper takes a
        // reference of its own, so the object outlives gtk_window_destroy() while Swift holds it.
        let raw = trellis_confirmation_dialog_new(window.object.as(), confirmation.title, confirmation.details,
                                                  tr("Cancel"), confirmation.confirmLabel)!
        dialog = Dialog(retaining: GObjectPointer(raw))
        dialog.connect("response", integer: { [weak self] response in
            self?.close(confirmed: response == GTK_RESPONSE_ACCEPT.rawValue)
        })
        nameGtkParts(in: dialog.widget)
        gtk_window_present(dialog.object.as())
    }

    /// The dialog's window (for screenshots).
    var window: GObjectPointer { dialog.object }

    /// Answers as the dialog's buttons do (for the automation channel), and closes it.
    func respond(confirmed: Bool) {
        gtk_dialog_response(dialog.object.as(), confirmed ? GTK_RESPONSE_ACCEPT.rawValue : GTK_RESPONSE_CANCEL.rawValue)
    }

    private func close(confirmed: Bool) {
        guard let answer else { return }
        self.answer = nil
        gtk_window_destroy(dialog.object.as())
        answer(confirmed)
    }
}
