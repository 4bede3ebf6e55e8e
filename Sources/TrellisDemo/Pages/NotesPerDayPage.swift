import TrellisCore
import TrellisStore

/// `/notes-per-day`: a chart of the notes written each day (custom content: the window
/// draws it with the renderer the app registered, headless shows its lines), live as notes
/// are saved.
final class NotesPerDayPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Notes per day")
        guard let store = shell.resolve(StoreBox.self)?.store else {
            content = .text(tr("No store is open."))
            return
        }
        do {
            let perDay = try NotesPerDay(context: store.newContext())
            let custom = CustomContent(perDay)
            perDay.onChange = { [weak custom] in custom?.modelChanged() }
            content = .custom(custom)
        } catch {
            content = .text(tr("The notes cannot be read: %@", String(describing: error)))
        }
    }
}
