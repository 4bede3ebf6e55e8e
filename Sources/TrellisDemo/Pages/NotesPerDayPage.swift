import TrellisCore
import TrellisStore

/// `/notes-per-day`: a chart of the notes written each day (custom content: the window
/// draws it with the renderer the app registered, headless shows its lines), live as notes
/// are saved.
final class NotesPerDayPage: PageController {
    required init(values: RouteValues, shell: Shell) {
        super.init(values: values, shell: shell)
        title = tr("Notes per day")
        content = storeContent(failure: { tr("The notes cannot be read: %@", $0) }) { store in
            let perDay = try NotesPerDay(context: store.newContext())
            let custom = CustomContent(perDay)
            perDay.onChange = { [weak custom] in custom?.modelChanged() }
            return .custom(custom)
        }
    }
}
